import { type Command, printJson } from '../command.js';

export const openapiCommand: Command = {
  name: 'openapi',
  summary: 'Print the OpenAPI 3.1 document of the REST API, as JSON.',
  positionals: [],
  options: {
    admin: { type: 'boolean', description: "the admin API's document instead (docs/admin-api.md)" },
  },
  details:
    'Needs no database (--db is ignored); --store sets the default of the store_code variable.',
  async run(context) {
    // Loaded on demand: the other commands never load the HTTP layer.
    const { buildAdminOpenApiDocument, buildOpenApiDocument } = await import('../../http/index.js');
    printJson(
      context,
      context.args.values.admin === true
        ? buildAdminOpenApiDocument()
        : buildOpenApiDocument({ storeCode: context.store }),
    );
    return 0;
  },
};
