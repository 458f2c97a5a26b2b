import { describe, expect, it } from 'vitest';
import { type Locate, locateDestination } from '../../src/index.js';

const address = { country_id: ' it ', postcode: '24121', city: 'Bergamo', region: 'BG' };

describe('locateDestination', () => {
  it("takes the address's own coordinates first, without asking the locator", async () => {
    let asked = 0;
    const locate: Locate = () => {
      asked++;
      return null;
    };
    expect(
      await locateDestination({ ...address, latitude: 45.69, longitude: 9.67 }, locate),
    ).toEqual({
      country: 'IT',
      point: { latitude: 45.69, longitude: 9.67 },
      located_by: 'address',
    });
    expect(asked).toBe(0);
  });

  it("else the locator's answer, synchronous or not", async () => {
    const locate: Locate = async () => ({ latitude: 45.7, longitude: 9.7, located_by: 'postcode' });
    expect(await locateDestination(address, locate)).toEqual({
      country: 'IT',
      point: { latitude: 45.7, longitude: 9.7 },
      located_by: 'postcode',
    });
  });

  it('else nowhere: no locator, one that cannot tell, or one that fails', async () => {
    const nowhere = { country: 'IT', point: null, located_by: null };
    expect(await locateDestination(address, null)).toEqual(nowhere);
    expect(await locateDestination(address, () => null)).toEqual(nowhere);
    const failing: Locate = async () => {
      throw new Error('geocoder down');
    };
    expect(await locateDestination(address, failing)).toEqual(nowhere);
  });
});
