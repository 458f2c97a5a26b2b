import { createSimulatedCarrier, simulatedCourier } from '@fulfil/core';
import { runCourierContract } from '@fulfil/core/testing';
import { createHttpCourier } from '../../src/couriers/http-courier.js';
import { startFakeHttpCourier } from './fake-http-courier.js';

const settings = { type: 'x', fail_skus: [], max_attempts: 3, delay_ms: 0 };

runCourierContract('simulated', async () => ({
  courier: createSimulatedCarrier().factory(settings),
}));

runCourierContract('the built-in simulated courier', async () => ({
  courier: simulatedCourier(settings),
}));

runCourierContract('http', async () => {
  const fake = await startFakeHttpCourier('contract-secret');
  return {
    courier: createHttpCourier({ env: { SECRET: 'contract-secret' } })({
      ...settings,
      url: fake.url,
      secret_env: 'SECRET',
    }),
    cleanup: () => fake.close(),
  };
});
