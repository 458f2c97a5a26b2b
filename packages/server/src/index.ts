/** @fulfil/server: the REST surface of the engine on node:http, and the `fulfil` CLI. */

export * from './couriers/index.js';
export * from './http/index.js';
