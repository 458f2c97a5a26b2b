import { answer, answerFixed } from './answers.js';
import { docsAsset } from './docs-assets.js';
import { type DocsPage, loadDocsPage } from './docs-page.js';
import { HttpError } from './errors.js';
import type { RouteOf, ServeRoute } from './exchange.js';
import { homeAnswer } from './home-page.js';
import { requestBaseUrl } from './public-url.js';
import { noRoute } from './refusals.js';
import { header } from './request-parts.js';

/** The public pages: the API reference with its images, and the home page. */

export interface PageOptions {
  publicUrl: string | undefined;
  /** What the home page says is on. */
  on: { console: boolean; admin: boolean; metrics: boolean };
}

export function createPageRoutes({
  publicUrl,
  on,
}: PageOptions): ServeRoute<RouteOf<'docs' | 'asset' | 'home'>> {
  let docsPage: DocsPage | null | undefined;
  return async (request, _exchange, route, params) => {
    if (route.kind === 'docs') {
      docsPage ??= loadDocsPage();
      if (!docsPage) throw new HttpError(404, 'The API reference page is not built.');
      // Relative, so that the page works behind a proxy that mounts the server under a prefix.
      const openApiUrl = params.store_code === undefined ? 'rest/default/schema' : 'schema';
      return answerFixed(request, await docsPage.page(openApiUrl));
    }
    if (route.kind === 'asset') {
      const asset = docsAsset(route.name ?? (params.asset as string));
      if (!asset) throw noRoute(request.path);
      return answerFixed(request, await asset);
    }
    docsPage ??= loadDocsPage();
    const home = homeAnswer(
      header(request.headers, 'accept'),
      requestBaseUrl(publicUrl, header(request.headers, 'host')),
      { docs: docsPage !== null, ...on },
    );
    return answer(200, home.contentType, home.body, home.headers);
  };
}
