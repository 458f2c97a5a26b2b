/**
 * Writes src/generated/: the client's types and XML shapes, derived from the schemas the server
 * validates with (core's resources and requests, the server's error body), one file per family of
 * resources (the OpenAPI document's tags, sales orders split by what they answer) and an index
 * that re-exports them. A shape more than one family holds (a fulfillment order in the Sales
 * order view, an address in both) is written once, in common.ts, and named where it recurs. The client ships no valibot and no core; this keeps it in step with them.
 * `pnpm --filter @fulfil/client generate` rewrites them; a test fails when one is out of date.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  AcceptRequest,
  AddressInput,
  CreditRequest,
  InvoiceRequest,
  ItemResourceSchema,
  OrderResourceSchema,
  ReceiptRequest,
  RejectRequest,
  ReturnRequest,
  ReturnResourceSchema,
  SalesOrderInput,
  SalesOrderResourceSchema,
  ShippingInput,
  ShipRequest,
  StockAdjustmentRequest,
  StockAdjustmentResourceSchema,
  StockItemResourceSchema,
  StockItemsRequest,
  WarehouseResourceSchema,
} from '@fulfil/core';
import ts from 'typescript';
import { ErrorBodySchema } from '../../server/src/http/openapi/resources.js';
import {
  HoldAnswerSchema,
  SalesOrderBatchEntrySchema,
} from '../../server/src/http/sales-orders.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const OUTPUT = fileURLToPath(new URL('../src/generated/', import.meta.url));

interface TypeSpec {
  name: string;
  doc: string;
  source: string;
}

/**
 * A shape written once in common.ts: its type, and the XML shape of the schema it comes from (a
 * closed set of values has none: XML reads it as text).
 */
interface CommonShape extends TypeSpec {
  /** The XML shape's constant. */
  shape?: string;
  schema?: unknown;
  /** A closed set that holds another common one: written as that one and the values it adds. */
  includes?: string;
}

const SERVER_RESOURCES = 'import("./packages/server/src/http/openapi/resources.js")';

/** The shapes that recur: every other type and XML shape names them instead of spelling them. */
const COMMON: readonly CommonShape[] = [
  {
    name: 'ItemStatus',
    doc: 'The statuses of an item: its forward stages, then the two ends off the flow.',
    source: '(typeof core.ITEM_STATUSES)[number]',
  },
  {
    name: 'OrderStatus',
    doc: 'The statuses of a fulfillment order.',
    source: '(typeof core.ORDER_STATUSES)[number]',
    includes: 'ItemStatus',
  },
  {
    name: 'HoldReason',
    doc: 'Why a sales order is held.',
    source: '(typeof core.HOLD_REASONS)[number]',
  },
  {
    name: 'Address',
    doc: 'A postal address with its contact, as orders carry them.',
    source: 'Out<typeof core.AddressInput>',
    shape: 'ADDRESS',
    schema: AddressInput,
  },
  {
    name: 'Shipping',
    doc: "How an order ships: the shop's method, the partner's, and a pickup point if any.",
    source: 'Out<typeof core.ShippingInput>',
    shape: 'SHIPPING',
    schema: ShippingInput,
  },
  {
    name: 'FulfillmentOrderItem',
    doc: 'An item line of a fulfillment order.',
    source: 'Out<typeof core.ItemResourceSchema>',
    shape: 'ITEM',
    schema: ItemResourceSchema,
  },
  {
    name: 'FulfillmentOrder',
    doc: 'A fulfillment order. Amounts are absent in the pending_accept and failed queues.',
    source: 'Out<typeof core.OrderResourceSchema>',
    shape: 'ORDER',
    schema: OrderResourceSchema,
  },
  {
    name: 'Return',
    doc: 'A return: its lines with what receipts and credits made of them.',
    source: 'Out<typeof core.ReturnResourceSchema>',
    shape: 'RETURN',
    schema: ReturnResourceSchema,
  },
  {
    name: 'SalesOrder',
    doc: 'The Sales order view: status, fulfillment orders, shipments with tracks, invoices.',
    source: 'Out<typeof core.SalesOrderResourceSchema>',
    shape: 'SALES_ORDER',
    schema: SalesOrderResourceSchema,
  },
  {
    name: 'ErrorBody',
    doc: 'The body of every error answer.',
    source: `Out<typeof ${SERVER_RESOURCES}.ErrorBodySchema>`,
    shape: 'ERROR_BODY',
    schema: ErrorBodySchema,
  },
];

/**
 * Runs of fields that shapes of their own hold alike (a sales order as a channel sends it and
 * the fulfillment orders it becomes): written once, and joined (`Customer & { … }`) where they
 * stand whole.
 */
const FIELD_RUNS: readonly TypeSpec[] = [
  {
    name: 'Customer',
    doc: 'The customer of an order.',
    source: 'Pick<Out<typeof core.OrderResourceSchema>, keyof core.Customer>',
  },
  {
    name: 'OrderAmounts',
    doc: 'The amounts of an order, as numbers.',
    source: 'Pick<Out<typeof core.OrderResourceSchema>, (typeof core.ORDER_AMOUNT_FIELDS)[number]>',
  },
  {
    name: 'ItemAmounts',
    doc: 'The amounts of an item line, as numbers.',
    source: 'Pick<Out<typeof core.ItemResourceSchema>, (typeof core.ITEM_AMOUNT_FIELDS)[number]>',
  },
];

/** One generated file: a family of resources, its public types and the XML shapes it decodes. */
interface Family {
  file: string;
  doc: string;
  /** The common shapes that belong to the family: re-exported from common.ts, type and XML. */
  common: readonly string[];
  /** Each public type: its name, what it is, and the type expression in core's terms. */
  types: readonly TypeSpec[];
  /** Each XML shape: the constant's name, the type it decodes, and the schema it comes from. */
  shapes: readonly (readonly [string, string, unknown])[];
}

const FAMILIES: readonly Family[] = [
  {
    file: 'warehouses.ts',
    doc: "The store's warehouses and their on-hand stock.",
    common: [],
    types: [
      {
        name: 'Warehouse',
        doc: 'A warehouse of the store.',
        source: 'Out<typeof core.WarehouseResourceSchema>',
      },
      {
        name: 'StockItem',
        doc: 'On-hand quantity of one sku in one warehouse.',
        source: 'Out<typeof core.StockItemResourceSchema>',
      },
      {
        name: 'StockItemsRequest',
        doc: 'Body of POST /V1/stockItems: absolute on-hand quantities.',
        source: 'core.StockItemsInput',
      },
      {
        name: 'StockAdjustment',
        doc: 'An applied stock adjustment: each line with the on hand it left.',
        source: 'Out<typeof core.StockAdjustmentResourceSchema>',
      },
      {
        name: 'StockAdjustmentRequest',
        doc: 'Body of POST /V1/stockAdjustments: deltas with reasons, once per adjustment_number.',
        source: 'core.StockAdjustmentInput',
      },
    ],
    shapes: [
      ['WAREHOUSE', 'Warehouse', WarehouseResourceSchema],
      ['STOCK_ITEM', 'StockItem', StockItemResourceSchema],
      ['STOCK_ADJUSTMENT', 'StockAdjustment', StockAdjustmentResourceSchema],
    ],
  },
  {
    file: 'fulfillment-orders.ts',
    doc: 'Fulfillment orders, their polled queues, and the bodies of the actions that move them.',
    common: ['FulfillmentOrder', 'FulfillmentOrderItem'],
    types: [
      { name: 'QueueName', doc: 'The polled queues.', source: 'core.QueueName' },
      {
        name: 'AcceptRequest',
        doc: 'Body of accept: qty > 0 accepts that quantity of an item, 0 rejects it.',
        source: 'core.AcceptInput',
      },
      { name: 'RejectRequest', doc: 'Body of reject.', source: 'core.RejectInput' },
      {
        name: 'AllocateRequest',
        doc: 'Body of allocate (the reference key `allocation`).',
        source: 'Extract<core.AllocateInput, { allocation: unknown }>',
      },
      {
        name: 'ShipRequest',
        doc: 'Body of ship: the items of one shipment.',
        source: 'core.ShipInput',
      },
      { name: 'InvoiceRequest', doc: 'Body of invoice.', source: 'core.InvoiceInput' },
    ],
    shapes: [],
  },
  {
    file: 'sales-orders.ts',
    doc: 'Sales orders as a channel hands them in, and the Sales order view of each.',
    common: ['SalesOrder'],
    types: [
      {
        name: 'SalesOrderInput',
        doc: 'A sales order as a channel hands it in (amounts as numbers).',
        source: 'core.SalesOrderInput',
      },
    ],
    shapes: [],
  },
  {
    file: 'sales-order-batches.ts',
    doc: 'The answer to a batch intake of sales orders, one entry per sales order.',
    common: [],
    types: [
      {
        name: 'SalesOrderBatchEntry',
        doc: 'The answer to one sales order of a batch intake: its status, and its view or error.',
        source: 'import("./packages/server/src/http/sales-orders.js").SalesOrderBatchEntry',
      },
    ],
    shapes: [['SALES_ORDER_BATCH_ENTRY', 'SalesOrderBatchEntry', SalesOrderBatchEntrySchema]],
  },
  {
    file: 'holds-and-cancellations.ts',
    doc: 'Holds on sales orders and requests to cancel them, and the answers to both.',
    common: [],
    types: [
      {
        name: 'HoldRequest',
        doc: 'Body of POST /V1/salesOrder/hold: a hold under a handle, with a reason and a note.',
        source: 'core.HoldInput',
      },
      {
        name: 'ReleaseRequest',
        doc: 'Body of POST /V1/salesOrder/release: the handle of the hold to release.',
        source: 'core.ReleaseInput',
      },
      {
        name: 'CancellationRequest',
        doc: 'Body of POST /V1/salesOrder/cancel: the whole sales order, or the items listed.',
        source: 'core.CancellationInput',
      },
      {
        name: 'AcceptCancellationRequest',
        doc: 'Body of acceptCancellation: the order whose requested items to cancel.',
        source: 'core.AcceptCancellationInput',
      },
      {
        name: 'RejectCancellationRequest',
        doc: 'Body of rejectCancellation: the order, and why its items stay in the flow.',
        source: 'core.RejectCancellationInput',
      },
      {
        name: 'HoldAnswer',
        doc: 'The answer to a hold: where it applies, where not and why, and the sales order.',
        source: 'import("./packages/server/src/http/sales-orders.js").HoldAnswer',
      },
    ],
    shapes: [['HOLD_ANSWER', 'HoldAnswer', HoldAnswerSchema]],
  },
  {
    file: 'returns.ts',
    doc: 'Returns of shipped lines, their receipts and credits, and their polled queues.',
    common: ['Return'],
    types: [
      {
        name: 'ReturnRequest',
        doc: 'Body of POST /V1/returns: a return of shipped lines, once by its rma_number.',
        source: 'core.ReturnRequestInput',
      },
      {
        name: 'ReceiptRequest',
        doc: 'Body of receive: what one receipt at the receiving warehouse found, per line.',
        source: 'core.ReceiptInput',
      },
      {
        name: 'CreditRequest',
        doc: 'Body of credit: the credit note of the received, uncredited lines.',
        source: 'core.CreditInput',
      },
      {
        name: 'ReturnQueue',
        doc: 'The two polled queues of returns.',
        source: 'core.ReturnQueue',
      },
    ],
    shapes: [],
  },
  {
    file: 'errors.ts',
    doc: 'The body of every error answer.',
    common: ['ErrorBody'],
    types: [],
    shapes: [],
  },
];

const TYPES = FAMILIES.flatMap((family) => family.types);

/** Where a type names a common shape the probe writes `Named<'Address'>`; the file, `Address`. */
const NAMED = /\bNamed<'(\w+)'>/g;

/**
 * The type expressions, expanded into plain object types by the compiler itself, by name: each
 * common shape spelled once, and named wherever else it stands (the very same type, compared
 * as the compiler compares types, not a look-alike).
 */
function typeDeclarations(): Map<string, string> {
  const probe = `${ROOT}client-types-probe.ts`;
  const text = [
    "import type * as core from './packages/core/src/index.js';",
    // What a schema answers with: the wire's types (the domain's may name their parts).
    "type Out<S extends { '~types'?: { output: unknown } | undefined }> = NonNullable<S['~types']>['output'];",
    'type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;',
    // A key per name, so that two names joined (`A & B`) are not one contradiction.
    'type Named<N extends string> = { readonly [K in N]: K };',
    `type Common = { ${COMMON.map(({ name, source }) => `${name}: ${source};`).join(' ')} };`,
    'type NameOf<T> = { [K in keyof Common]: Same<T, Common[K]> extends true ? K : never }[keyof Common];',
    // Interfaces print as their names; mapping every object type spells it out instead.
    // A closed set is named whole; else each member of a union on its own (`X | undefined`).
    'type Expand<T> = [NameOf<T>] extends [never] ? Each<T> : Named<NameOf<T>>;',
    'type Each<T> = T extends unknown ? ([NameOf<T>] extends [never] ? Spell<T> : Named<NameOf<T>>) : never;',
    `type Runs = { ${FIELD_RUNS.map(({ name, source }) => `${name}: ${source};`).join(' ')} };`,
    // The runs an object holds whole: each of their fields there, of the very same type.
    'type RunsIn<T> = { [R in keyof Runs]: keyof Runs[R] extends keyof T ? (Same<Pick<T, keyof Runs[R]>, Runs[R]> extends true ? R : never) : never }[keyof Runs];',
    'type Joined<R extends string> = (R extends unknown ? (x: Named<R>) => void : never) extends (x: infer I) => void ? I : never;',
    'type RunKeys<R> = R extends keyof Runs ? keyof Runs[R] : never;',
    // The fields besides the runs, written in place: a named helper would print as its name.
    'type Spell<T> = T extends (infer U)[] ? Expand<U>[] : T extends object ? ([RunsIn<T>] extends [never] ? { [K in keyof T]: Expand<T[K]> } : Joined<RunsIn<T>> & { [K in keyof T as K extends RunKeys<RunsIn<T>> ? never : K]: Expand<T[K]> }) : T;',
    ...FIELD_RUNS.map(
      ({ name }) =>
        `export type ${name} = { [K in keyof Runs['${name}']]: Expand<Runs['${name}'][K]> };`,
    ),
    ...COMMON.map(({ name, includes }) =>
      includes
        ? `export type ${name} = Named<'${includes}'> | Exclude<Common['${name}'], Common['${includes}']>;`
        : `export type ${name} = Spell<Common['${name}']>;`,
    ),
    // What a closed set says it includes, it must: else the line above would add values.
    ...COMMON.flatMap(({ name, includes }) =>
      includes
        ? [
            `export type Includes${name} = [Common['${includes}']] extends [Common['${name}']] ? true : false;`,
          ]
        : [],
    ),
    ...TYPES.map(({ name, source }) => `export type ${name} = Expand<${source}>;`),
  ].join('\n');
  const options: ts.CompilerOptions = {
    strict: true,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    types: [],
    skipLibCheck: true,
    noEmit: true,
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (name) => (name === probe ? text : readFile(name));
  host.fileExists = (name) => name === probe || fileExists(name);
  const program = ts.createProgram([probe], options, host);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(probe);
  if (!source) throw new Error('the probe did not compile');
  const flags =
    ts.TypeFormatFlags.NoTruncation |
    ts.TypeFormatFlags.InTypeAlias |
    ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType;
  const specs = [...FIELD_RUNS, ...COMMON, ...TYPES];
  const declarations = new Map<string, string>();
  for (const statement of source.statements) {
    if (!ts.isTypeAliasDeclaration(statement) || !statement.modifiers) continue;
    if (statement.name.text.startsWith('Includes')) {
      const holds = checker.typeToString(checker.getTypeAtLocation(statement.name));
      if (holds !== 'true') throw new Error(`${statement.name.text}: the set does not hold it`);
      continue;
    }
    const spec = specs.find((entry) => entry.name === statement.name.text);
    if (!spec) continue;
    const expanded = checker
      .typeToString(checker.getTypeAtLocation(statement.name), undefined, flags)
      .replace(NAMED, '$1');
    if (/\bimport\(|\bcore\.|\b(Expand|Each|Spell|Out|Named|Common)</.test(expanded)) {
      throw new Error(`${spec.name} did not expand into a plain type: ${expanded}`);
    }
    declarations.set(spec.name, `/** ${spec.doc} */\nexport type ${spec.name} = ${expanded};`);
  }
  return declarations;
}

/** What the XML decoder needs of a schema: which leaves are numbers or booleans, what is a list. */
type Shape = 'string' | 'number' | 'boolean' | readonly [Shape] | { readonly [key: string]: Shape };

interface SchemaLike {
  type: string;
  options?: readonly unknown[];
  entries?: Record<string, SchemaLike>;
  item?: SchemaLike;
  wrapped?: SchemaLike;
}

/** Where an XML shape holds a common one, it names its constant; marked so until written out. */
const COMMON_SHAPES = new Map<unknown, string>(
  COMMON.flatMap(({ shape, schema }) => (shape ? [[schema, shape] as const] : [])),
);
const SHAPE_MARK = '\u0000';

function shapeOf(schema: SchemaLike, root = true): Shape {
  const common = root ? undefined : COMMON_SHAPES.get(schema);
  if (common) return `${SHAPE_MARK}${common}` as Shape;
  switch (schema.type) {
    case 'string':
    case 'number':
    case 'boolean':
      return schema.type;
    // Statuses: a closed set of strings, read as text; a batch entry's HTTP statuses, numbers.
    case 'picklist':
      return schema.options?.every((option) => typeof option === 'number') ? 'number' : 'string';
    // The lists of a sales order view that later versions fill: empty, entries read as text.
    case 'unknown':
      return 'string';
    case 'optional':
    case 'nullable':
      return shapeOf(schema.wrapped as SchemaLike, false);
    case 'array':
      return [shapeOf(schema.item as SchemaLike, false)];
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.entries ?? {}).map(([key, entry]) => [key, shapeOf(entry, false)]),
      );
    default:
      throw new Error(`no XML shape for a schema of type ${schema.type}`);
  }
}

/** The shape as code: a common one it holds by its constant's name. */
function shapeText(schema: unknown): string {
  return JSON.stringify(shapeOf(schema as SchemaLike)).replace(/"\\u0000(\w+)"/g, '$1');
}

function shapeDeclaration([name, type, schema]: Family['shapes'][number]): string {
  return `/** The XML shape of ${type}. */\nexport const ${name}: Shape = ${shapeText(schema)};`;
}

// The request schemas are named so that a renamed or removed one breaks this script, not the client.
void [
  AcceptRequest,
  RejectRequest,
  ShipRequest,
  InvoiceRequest,
  StockItemsRequest,
  StockAdjustmentRequest,
  SalesOrderInput,
  ReturnRequest,
  ReceiptRequest,
  CreditRequest,
];

const HEADER = [
  '// Generated by packages/client/scripts/generate.ts from the schemas of @fulfil/core and the',
  "// server's error body. Do not edit; run `pnpm --filter @fulfil/client generate`.",
];

/** The type every XML shape has: what the XML decoder knows of a resource. */
const SHAPE_FILE = [
  ...HEADER,
  '',
  '/** What the XML decoder knows of a resource: leaf types and lists. */',
  "export type Shape = 'string' | 'number' | 'boolean' | readonly [Shape] | { readonly [key: string]: Shape };",
  '',
].join('\n');

/** The common types and shape constants a text names, as import specifiers. */
function commonNamesIn(text: string): string[] {
  const names = (name: string) => new RegExp(`\\b${name}\\b`).test(text);
  return [
    ...FIELD_RUNS.filter(({ name }) => names(name)).map(({ name }) => `type ${name}`),
    ...COMMON.filter(({ name }) => names(name)).map(({ name }) => `type ${name}`),
    ...COMMON.flatMap(({ shape }) => (shape && names(shape) ? [shape] : [])),
  ];
}

function declared(declarations: Map<string, string>, name: string): string {
  const declaration = declarations.get(name);
  if (!declaration) throw new Error(`${name} was not declared`);
  return declaration;
}

/** common.ts: every shape that recurs, its type and its XML shape, each written once. */
function commonFile(declarations: Map<string, string>): string {
  return [
    ...HEADER,
    '// The shapes more than one family holds, written once and named wherever they recur.',
    '',
    "import type { Shape } from './shape.js';",
    '',
    [...FIELD_RUNS, ...COMMON].map(({ name }) => declared(declarations, name)).join('\n\n'),
    '',
    COMMON.flatMap(({ name, shape, schema }) =>
      shape ? [shapeDeclaration([shape, name, schema])] : [],
    ).join('\n\n'),
    '',
  ].join('\n');
}

function familyFile(family: Family, declarations: Map<string, string>): string {
  const types = family.types.map(({ name }) => declared(declarations, name)).join('\n\n');
  const shapes = family.shapes.map(shapeDeclaration).join('\n\n');
  // What the family's own declarations use of the common shapes (not their names in comments).
  const used = commonNamesIn(
    [...types.split('\n').filter((line) => !line.startsWith('/**')), shapes].join('\n'),
  );
  const own = COMMON.filter(({ name }) => family.common.includes(name));
  const exported = [
    ...own.map(({ name }) => `type ${name}`),
    ...own.flatMap(({ shape }) => (shape ? [shape] : [])),
  ];
  return [
    ...HEADER,
    `// ${family.doc}`,
    '',
    ...(used.length > 0 ? [`import { ${used.join(', ')} } from './common.js';`] : []),
    ...(family.shapes.length > 0 ? ["import type { Shape } from './shape.js';"] : []),
    '',
    ...(exported.length > 0 ? [`export { ${exported.join(', ')} } from './common.js';`, ''] : []),
    types,
    '',
    shapes,
    '',
  ].join('\n');
}

/** The index: every family and the Shape type re-exported, in the order the formatter sorts them. */
function indexFile(files: readonly string[]): string {
  const modules = [...files].sort().map((file) => file.replace(/\.ts$/, '.js'));
  return [...HEADER, '', ...modules.map((module) => `export * from './${module}';`), ''].join('\n');
}

/** Every generated file by its name in src/generated/, formatted as the repository formats code. */
export function generate(): Map<string, string> {
  const declarations = typeDeclarations();
  const texts = new Map<string, string>([['shape.ts', SHAPE_FILE]]);
  for (const family of FAMILIES) texts.set(family.file, familyFile(family, declarations));
  // The families re-export the common shapes they own; common.ts itself is theirs to name.
  texts.set('index.ts', indexFile([...texts.keys()]));
  texts.set('common.ts', commonFile(declarations));
  const files = new Map<string, string>();
  for (const [file, text] of texts) {
    const formatted = execFileSync(
      `${ROOT}node_modules/.bin/biome`,
      // `check`, not `format`: it also sorts the imports and exports, as the linter wants them.
      ['check', '--write', `--stdin-file-path=${OUTPUT}${file}`],
      { input: text, encoding: 'utf8', cwd: ROOT },
    );
    files.set(file, formatted);
  }
  return files;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const files = generate();
  mkdirSync(OUTPUT, { recursive: true });
  // A file of a family renamed or removed goes, so that the index and the directory agree.
  for (const stale of readdirSync(OUTPUT)) {
    if (!files.has(stale)) rmSync(`${OUTPUT}${stale}`);
  }
  for (const [file, text] of files) writeFileSync(`${OUTPUT}${file}`, text);
  console.log(`wrote ${files.size} files in ${OUTPUT}`);
}
