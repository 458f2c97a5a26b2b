/**
 * Writes src/generated/: the client's types and XML shapes, derived from the schemas the server
 * validates with (core's resources and requests, the server's error body), one file per family of
 * resources (the OpenAPI document's tags, sales orders split by what they answer) and an index
 * that re-exports them. The client ships no valibot and no core; this keeps it in step with them.
 * `pnpm --filter @fulfil/client generate` rewrites them; a test fails when one is out of date.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  AcceptRequest,
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
  ShipRequest,
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

/** One generated file: a family of resources, its public types and the XML shapes it decodes. */
interface Family {
  file: string;
  doc: string;
  /** Each public type: its name, what it is, and the type expression in core's terms. */
  types: readonly TypeSpec[];
  /** Each XML shape: the constant's name, the type it decodes, and the schema it comes from. */
  shapes: readonly (readonly [string, string, unknown])[];
}

const FAMILIES: readonly Family[] = [
  {
    file: 'warehouses.ts',
    doc: "The store's warehouses and their on-hand stock.",
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
    ],
    shapes: [
      ['WAREHOUSE', 'Warehouse', WarehouseResourceSchema],
      ['STOCK_ITEM', 'StockItem', StockItemResourceSchema],
    ],
  },
  {
    file: 'fulfillment-orders.ts',
    doc: 'Fulfillment orders, their polled queues, and the bodies of the actions that move them.',
    types: [
      {
        name: 'FulfillmentOrder',
        doc: 'A fulfillment order. Amounts are absent in the pending_accept and failed queues.',
        source: 'Out<typeof core.OrderResourceSchema>',
      },
      {
        name: 'FulfillmentOrderItem',
        doc: 'An item line of a fulfillment order.',
        source: 'Out<typeof core.ItemResourceSchema>',
      },
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
    shapes: [
      ['ORDER', 'FulfillmentOrder', OrderResourceSchema],
      ['ITEM', 'FulfillmentOrderItem', ItemResourceSchema],
    ],
  },
  {
    file: 'sales-orders.ts',
    doc: 'Sales orders as a channel hands them in, and the Sales order view of each.',
    types: [
      {
        name: 'SalesOrderInput',
        doc: 'A sales order as a channel hands it in (amounts as numbers).',
        source: 'core.SalesOrderInput',
      },
      {
        name: 'SalesOrder',
        doc: 'The Sales order view: status, fulfillment orders, shipments with tracks, invoices.',
        source: 'Out<typeof core.SalesOrderResourceSchema>',
      },
    ],
    shapes: [['SALES_ORDER', 'SalesOrder', SalesOrderResourceSchema]],
  },
  {
    file: 'sales-order-batches.ts',
    doc: 'The answer to a batch intake of sales orders, one entry per sales order.',
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
        name: 'Return',
        doc: 'A return: its lines with what receipts and credits made of them.',
        source: 'Out<typeof core.ReturnResourceSchema>',
      },
      {
        name: 'ReturnQueue',
        doc: 'The two polled queues of returns.',
        source: 'core.ReturnQueue',
      },
    ],
    shapes: [['RETURN', 'Return', ReturnResourceSchema]],
  },
  {
    file: 'errors.ts',
    doc: 'The body of every error answer.',
    types: [
      {
        name: 'ErrorBody',
        doc: 'The body of every error answer.',
        source: 'import("./packages/server/src/http/errors.js").ErrorBody',
      },
    ],
    shapes: [['ERROR_BODY', 'ErrorBody', ErrorBodySchema]],
  },
];

const TYPES = FAMILIES.flatMap((family) => family.types);

/** The type expressions, expanded into plain object types by the compiler itself, by name. */
function typeDeclarations(): Map<string, string> {
  const probe = `${ROOT}client-types-probe.ts`;
  const text = [
    "import type * as core from './packages/core/src/index.js';",
    // What a schema answers with: the wire's types (the domain's may name their parts).
    "type Out<S extends { '~types'?: { output: unknown } | undefined }> = NonNullable<S['~types']>['output'];",
    // Interfaces print as their names; mapping every object type spells it out instead.
    'type Expand<T> = T extends (infer U)[] ? Expand<U>[] : T extends object ? { [K in keyof T]: Expand<T[K]> } : T;',
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
  const declarations = new Map<string, string>();
  for (const statement of source.statements) {
    if (!ts.isTypeAliasDeclaration(statement)) continue;
    const spec = TYPES.find((entry) => entry.name === statement.name.text);
    if (!spec) continue;
    const expanded = checker.typeToString(
      checker.getTypeAtLocation(statement.name),
      undefined,
      flags,
    );
    if (/\bimport\(|\bcore\.|\bExpand</.test(expanded)) {
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

function shapeOf(schema: SchemaLike): Shape {
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
      return shapeOf(schema.wrapped as SchemaLike);
    case 'array':
      return [shapeOf(schema.item as SchemaLike)];
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.entries ?? {}).map(([key, entry]) => [key, shapeOf(entry)]),
      );
    default:
      throw new Error(`no XML shape for a schema of type ${schema.type}`);
  }
}

function shapeDeclaration([name, type, schema]: Family['shapes'][number]): string {
  const shape = JSON.stringify(shapeOf(schema as SchemaLike));
  return `/** The XML shape of ${type}. */\nexport const ${name}: Shape = ${shape};`;
}

// The request schemas are named so that a renamed or removed one breaks this script, not the client.
void [
  AcceptRequest,
  RejectRequest,
  ShipRequest,
  InvoiceRequest,
  StockItemsRequest,
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

function familyFile(family: Family, declarations: Map<string, string>): string {
  const types = family.types.map(({ name }) => {
    const declaration = declarations.get(name);
    if (!declaration) throw new Error(`${name} was not declared`);
    return declaration;
  });
  return [
    ...HEADER,
    `// ${family.doc}`,
    '',
    ...(family.shapes.length > 0 ? ["import type { Shape } from './shape.js';", ''] : []),
    types.join('\n\n'),
    '',
    family.shapes.map(shapeDeclaration).join('\n\n'),
    '',
  ].join('\n');
}

/** The index: every generated file re-exported, in the order the formatter sorts them. */
function indexFile(files: readonly string[]): string {
  const modules = [...files].sort().map((file) => file.replace(/\.ts$/, '.js'));
  return [...HEADER, '', ...modules.map((module) => `export * from './${module}';`), ''].join('\n');
}

/** Every generated file by its name in src/generated/, formatted as the repository formats code. */
export function generate(): Map<string, string> {
  const declarations = typeDeclarations();
  const texts = new Map<string, string>([['shape.ts', SHAPE_FILE]]);
  for (const family of FAMILIES) texts.set(family.file, familyFile(family, declarations));
  texts.set('index.ts', indexFile([...texts.keys()]));
  const files = new Map<string, string>();
  for (const [file, text] of texts) {
    const formatted = execFileSync(
      `${ROOT}node_modules/.bin/biome`,
      ['format', `--stdin-file-path=${OUTPUT}${file}`],
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
