/**
 * The CSV export of a list view, a download of the back office outside the contract:
 * GET /lightning/o/{objectApiName}/list/export.csv?filterName={listViewApiName}[&sortBy=…][&searchTerm=…], the
 * list view's address with `/export.csv` after `list`. Its records are those its page shows the signed-in user
 * (server/platform/lists/export.ts), written as they are read: the body is a stream the client pulls, so that a
 * chunk of records is read from the database only when the last one has been sent, and reading stops when the
 * client goes away. A guest is sent to sign in, as for every back-office address.
 */
import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppOptions } from '../app-options.ts';
import type { Database } from '../db/connection.ts';
import { errorResponse } from '../http/errors.ts';
import { attachmentDisposition } from '../http/answers/attachment.ts';
import { principalOf, sessionOf, type AppEnv } from '../http/sessions/principal.ts';
import { exportListRecords } from '../platform/lists/export.ts';
import { BACK_OFFICE_PATH } from '../../common/pages.ts';
import { signInHref } from '../../common/sign-in.ts';

/** The export's route, beside the list view's own address (/lightning/o/{objectApiName}/list). */
const LIST_EXPORT_ROUTE = `${BACK_OFFICE_PATH}/o/:objectApiName/list/export.csv`;

/** The file's body: the parts as the client asks for them; the parts' source is ended if the client goes away. */
function pulled(parts: AsyncGenerator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done, value } = await parts.next();
          if (done) controller.close();
          else controller.enqueue(encoder.encode(value));
        } catch (error) {
          // Past the headers no error answer can be sent: the connection is cut, so that the client knows the
          // file is not whole.
          console.error(`The CSV export failed after it began:`, error);
          controller.error(error);
        }
      },
      async cancel() {
        await parts.return(undefined);
      },
    },
    // One part at a time: nothing is read ahead of what the client takes.
    { highWaterMark: 0 },
  );
}

export function listExportRoutes(db: Database, options: AppOptions = {}) {
  const app = new Hono<AppEnv>();
  const now = () => new Date(options.clock?.now() ?? Date.now());

  app.get(LIST_EXPORT_ROUTE, async (c: Context) => {
    if (!sessionOf(c)) {
      const url = new URL(c.req.url);
      c.header('Cache-Control', 'no-store');
      return c.redirect(signInHref(url.pathname, url.search), 302);
    }
    const listViewApiName = c.req.query('filterName');
    if (!listViewApiName)
      return errorResponse(c, 400, 'MISSING_ARGUMENT', 'filterName is required: the API name of the list view');
    const exported = await exportListRecords(
      db,
      principalOf(c),
      { objectApiName: c.req.param('objectApiName') ?? '', listViewApiName },
      { sortBy: c.req.query('sortBy') || null, searchTerm: c.req.query('searchTerm') || null },
      now(),
    );
    const date = now().toISOString().slice(0, 10);
    return c.body(pulled(exported.parts), 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': attachmentDisposition(`${exported.label} ${date}`, 'csv', 'export'),
      // The user's own records, read at each request: no cache keeps them.
      'Cache-Control': 'no-store',
    });
  });

  return app;
}
