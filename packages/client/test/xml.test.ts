import { describe, expect, it } from 'vitest';
import { ERROR_BODY, ORDER, WAREHOUSE } from '../src/generated/index.js';
import { decodeXmlResponse, encodeXmlRequest, XmlDecodeError } from '../src/xml.js';

describe('XML requests', () => {
  it('puts the body under <request>, arrays as <item>, text escaped, absent fields left out', () => {
    const xml = encodeXmlRequest({
      shipment: {
        order_id: '000123',
        items: [{ item_id: 7, qty: 1 }],
        carrier_title: 'A & B <express>',
        carrier_tracking_number: undefined,
      },
    });
    expect(xml).toBe(
      '<?xml version="1.0"?>\n<request><shipment><order_id>000123</order_id><items><item><item_id>7</item_id><qty>1</qty></item></items><carrier_title>A &amp; B &lt;express&gt;</carrier_title></shipment></request>',
    );
  });
});

describe('XML responses', () => {
  it('types values by the shape: numbers, booleans, text that looks like a number, lists', () => {
    const xml =
      '<?xml version="1.0"?>\n<response><item><name>Milan &amp; Co</name><code>007</code><active>true</active></item><item><name>B</name><code>B</code><active>false</active></item></response>';
    expect(decodeXmlResponse(xml, [WAREHOUSE])).toEqual([
      { name: 'Milan & Co', code: '007', active: true },
      { name: 'B', code: 'B', active: false },
    ]);
  });

  it('reads an empty list, one-entry lists, empty text, CDATA and character references', () => {
    expect(decodeXmlResponse('<?xml version="1.0"?>\n<response></response>', [ORDER])).toEqual([]);
    const body = decodeXmlResponse(
      '<response><message>Bad &#x25;fieldName<![CDATA[ <raw> ]]></message><code>1001</code><parameters><item><fieldName>order.items</fieldName><fieldValue></fieldValue></item></parameters></response>',
      ERROR_BODY,
    );
    expect(body).toEqual({
      message: 'Bad %fieldName <raw> ',
      code: 1001,
      parameters: [{ fieldName: 'order.items', fieldValue: '' }],
    });
  });

  it('keeps fields it does not know as text, so a newer server does not break it', () => {
    expect(
      decodeXmlResponse(
        '<response><name>A</name><code>A</code><active>true</active><since>5</since></response>',
        WAREHOUSE,
      ),
    ).toEqual({ name: 'A', code: 'A', active: true, since: '5' });
  });

  it.each([
    ['a DOCTYPE', '<!DOCTYPE x [<!ENTITY a "b">]><response>&a;</response>'],
    ['an unclosed element', '<response><name>A</response>'],
    ['another root', '<request></request>'],
    [
      'a number that is not one',
      '<response><name>A</name><code>A</code><active>yes</active></response>',
    ],
    ['no element at all', 'not xml'],
  ])('refuses %s', (_what, xml) => {
    expect(() => decodeXmlResponse(xml, WAREHOUSE)).toThrow(XmlDecodeError);
  });
});
