import { API_ACTIONS, ORDER_STATUSES, ROLE_PRESETS, resolveAcl, resourceOf } from '@fulfil/core';
import { describe, expect, test } from 'vitest';
import {
  ACL_ACTION,
  aclActionOf,
  aclGroups,
  failureWords,
  presetOf,
  STATUS,
} from '../app/ui/words.js';

/**
 * The console's words stay those of the engine: every ACL resource a role preset grants has
 * words and sits under the role whose preset holds it, so a new resource fails here until it
 * gets its words in app/ui/words.ts; every status has words and a tone.
 */

describe("the console's words", () => {
  test('every ACL resource has words, grouped under the roles whose presets hold it', () => {
    expect(Object.keys(ACL_ACTION).sort()).toEqual([...API_ACTIONS].sort());
    for (const action of API_ACTIONS) {
      const holds = (preset: 'partner' | 'erp' | 'channel') =>
        (ROLE_PRESETS[preset] as readonly string[]).includes(action);
      const expected =
        holds('partner') && holds('erp')
          ? 'shared'
          : holds('partner')
            ? 'partner'
            : holds('erp')
              ? 'erp'
              : 'channel';
      expect(ACL_ACTION[action].group, action).toBe(expected);
      expect(holds(expected === 'shared' ? 'partner' : expected), action).toBe(true);
      expect(`Acme_${ACL_ACTION[action].resource}`, action).toBe(resourceOf(action, 'Acme'));
    }
  });

  test('a token reads as its role when it holds a preset, else its resources grouped in words', () => {
    for (const preset of ['partner', 'erp', 'channel', 'all'] as const) {
      expect(presetOf(resolveAcl(preset))).toBe(preset);
      expect(presetOf(resolveAcl(preset, 'Acme'))).toBe(preset);
    }
    const custom = ['Fulfil_FulfillmentOrder::api_ship', 'Fulfil_FulfillmentOrder::api_allocate'];
    expect(presetOf(custom)).toBeNull();
    expect(aclGroups(custom)).toEqual([
      { group: 'Partner', words: ['Ship'] },
      { group: 'ERP', words: ['Allocate'] },
    ]);
    expect(aclActionOf('Fulfil_FulfillmentOrder::api_pending_allocation')).toBe(
      'pending_allocation',
    );
    // A resource of no shape the console knows is shown as it is, never dropped.
    expect(aclGroups(['Other::thing'])).toEqual([{ group: 'Other', words: ['Other::thing'] }]);
  });

  test('every status has words and a tone', () => {
    for (const status of ORDER_STATUSES) expect(STATUS[status]?.words, status).toBeTruthy();
  });

  test('a failure says where the order stood, true whether a partner accepted it or not', () => {
    expect(failureWords('allocation', ['pending_accept'], 'WH-A')).toBe(
      'Failed before WH-A accepted it',
    );
    expect(failureWords('allocation', ['pending_allocation'], 'WH-A')).toBe(
      'Failed before the ERP allocated it',
    );
    expect(failureWords('shipment', ['pending_shipment'], 'WH-A')).toBe(
      'Failed before WH-A shipped it',
    );
  });
});
