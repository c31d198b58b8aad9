/** npm run lint:api: Redocly's lint of the contract (redocly.yaml), without the notices nobody here can act on. */
import { runRedocly } from './lib/redocly.ts';

try {
  runRedocly(['lint', '--format=stylish', ...process.argv.slice(2)], { stdout: 'inherit' });
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
