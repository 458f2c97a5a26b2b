export { createHttpCourier, type HttpCourierOptions } from './http-courier.js';
export { builtInCouriers } from './registry.js';
export { createShipEngineCourier, type ShipEngineOptions } from './shipengine-courier.js';
export {
  DEFAULT_TOLERANCE_SECONDS,
  SIGNATURE_HEADER,
  type SignatureCheck,
  signRequest,
  verifySignature,
} from './signature.js';
