/** Bundles the split contract into the one file every other tool reads: generated/openapi.json. */
import { runRedocly } from './lib/redocly.ts';

runRedocly(['bundle', 'openapi/openapi.yaml', '--output', 'generated/openapi.json', '--ext', 'json']);
