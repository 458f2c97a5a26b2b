import { createSimulatedCarrier, simulatedCourier } from '@fulfil/core';
import { runCourierContract } from '@fulfil/core/testing';
import { createHttpCourier } from '../../src/couriers/http-courier.js';
import { startFakeHttpCourier } from './fake-http-courier.js';

const settings = { type: 'x', fail_skus: [], max_attempts: 3, delay_ms: 0 };
const simulated = { type: 'simulated' };

runCourierContract('simulated', async () => ({
  courier: createSimulatedCarrier().factory(settings, simulated),
}));

runCourierContract('the built-in simulated courier', async () => ({
  courier: simulatedCourier(settings, simulated),
}));

runCourierContract('http', async () => {
  const fake = await startFakeHttpCourier('contract-secret');
  return {
    courier: createHttpCourier({ env: { SECRET: 'contract-secret' } })(settings, {
      type: 'http',
      url: fake.url,
      secret_env: 'SECRET',
    }),
    cleanup: () => fake.close(),
  };
});
