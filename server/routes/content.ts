/** Content: content delivery by site or channel, and the media and image paths behind the site prefix. */
import type { AppEnv } from '../http/sessions/principal.ts';
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Database } from '../db/connection.ts';
import { routes } from '../../generated/routes.ts';
import { validationHook } from '../http/errors.ts';
import { etagMatches } from '../http/answers/cache-headers.ts';
import { implement } from '../http/operations/operation.ts';
import { getManagedContent, getManagedContents } from '../content/delivery.ts';
import {
  findMedia,
  imageVariant,
  MEDIA_TYPES,
  mediaBytes,
  mediaCacheControl,
  negotiateFormat,
  originalEtag,
  parseImageOptions,
  plannedSize,
  variantEtag,
  type MediaInfo,
} from '../content/media.ts';

const originOf = (c: Context) => new URL(c.req.url).origin;

const notModified = (c: Context, etag: string) => etagMatches(c.req.header('If-None-Match'), etag);

export function contentRoutes(db: Database) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

  implement(app, routes.getManagedContentForSite, async (c) => {
    const { siteId, contentKeyOrId } = c.req.valid('param');
    const document = await getManagedContent(db, { kind: 'site', id: siteId }, contentKeyOrId, c.req.valid('query'), {
      origin: originOf(c),
    });
    return c.json(document, 200);
  });

  implement(app, routes.getManagedContentForChannel, async (c) => {
    const { channelId, contentKeyOrId } = c.req.valid('param');
    const document = await getManagedContent(
      db,
      { kind: 'channel', id: channelId },
      contentKeyOrId,
      c.req.valid('query'),
      { origin: originOf(c) },
    );
    return c.json(document, 200);
  });

  implement(app, routes.getManagedContentsForSite, async (c) => {
    const collection = await getManagedContents(
      db,
      { kind: 'site', id: c.req.valid('param').siteId },
      c.req.valid('query'),
      { origin: originOf(c) },
    );
    return c.json(collection, 200);
  });

  implement(app, routes.getManagedContentsForChannel, async (c) => {
    const collection = await getManagedContents(
      db,
      { kind: 'channel', id: c.req.valid('param').channelId },
      c.req.valid('query'),
      { origin: originOf(c) },
    );
    return c.json(collection, 200);
  });

  /** The file as uploaded, or 304 when the client holds it. */
  const original = async (c: Context, media: MediaInfo, version: string | undefined) => {
    const etag = originalEtag(media);
    const headers = { ETag: etag, 'Cache-Control': mediaCacheControl(version, media.version) };
    if (notModified(c, etag)) return c.body(null, 304, headers);
    const bytes = await mediaBytes(db, media);
    return c.body(new Uint8Array(bytes), 200, { ...headers, 'Content-Type': media.mimeType });
  };

  /** The file resized as the options say, in the format the browser accepts, or 304. */
  const resized = async (c: Context, media: MediaInfo, options: string, version: string | undefined) => {
    const asked = parseImageOptions(options);
    const plan = plannedSize(media, asked);
    const format = negotiateFormat(c.req.header('Accept'), asked.format);
    const etag = variantEtag(media, plan, format);
    const headers = { ETag: etag, 'Cache-Control': mediaCacheControl(version, media.version), Vary: 'Accept' };
    if (notModified(c, etag)) return c.body(null, 304, headers);
    const bytes = await imageVariant(db, media, plan, format);
    return c.body(new Uint8Array(bytes), 200, { ...headers, 'Content-Type': MEDIA_TYPES[format] });
  };

  implement(
    app,
    routes.getManagedContentMedia,
    async (c) => {
      const media = await findMedia(db, { contentKey: c.req.valid('param').contentKey });
      return await original(c, media, c.req.valid('query').version);
    },
    { ownCacheHeaders: true },
  );

  implement(
    app,
    routes.getSiteImage,
    async (c) => {
      const media = await findMedia(db, { fileName: c.req.valid('param').fileName });
      return await original(c, media, c.req.valid('query').version);
    },
    { ownCacheHeaders: true },
  );

  implement(
    app,
    routes.getResizedManagedContentMedia,
    async (c) => {
      const { options, contentKey } = c.req.valid('param');
      // Options are checked before the file is looked up: a bad request is a 400 whatever it names.
      parseImageOptions(options);
      const media = await findMedia(db, { contentKey });
      return await resized(c, media, options, c.req.valid('query').version);
    },
    { ownCacheHeaders: true },
  );

  implement(
    app,
    routes.getResizedSiteImage,
    async (c) => {
      const { options, fileName } = c.req.valid('param');
      parseImageOptions(options);
      const media = await findMedia(db, { fileName });
      return await resized(c, media, options, c.req.valid('query').version);
    },
    { ownCacheHeaders: true },
  );

  return app;
}
