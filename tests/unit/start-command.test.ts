/**
 * How npm start runs the built server (scripts/lib/start-command.ts), which the benchmarks and the tests of the
 * built server follow: the environment the start script sets, and node's arguments.
 */
import { describe, expect, it } from 'vitest';
import { parseStartScript, startCommand } from '../../scripts/lib/start-command.ts';

describe('the start script, parsed', () => {
  it('takes the variables its last command sets and the arguments it gives node', () => {
    expect(
      parseStartScript(
        'node scripts/build-stamp.js ensure && A_B=2 NODE_ENV=production node --x=1 dist/server/main.js',
      ),
    ).toEqual({ env: { A_B: '2', NODE_ENV: 'production' }, args: ['--x=1', 'dist/server/main.js'] });
    expect(parseStartScript('node main.js')).toEqual({ env: {}, args: ['main.js'] });
    expect(parseStartScript('X=a=b node main.js').env).toEqual({ X: 'a=b' });
  });

  it('refuses a last command that does not run node on a file', () => {
    expect(() => parseStartScript('node build.js && vite preview')).toThrow(/does not run node/);
    expect(() => parseStartScript('NODE_ENV=production node')).toThrow(/does not run node/);
  });

  it("reads package.json's: the built server, in production", () => {
    const { env, args } = startCommand();
    expect(env.NODE_ENV).toBe('production');
    expect(args.at(-1)).toBe('dist/server/main.js');
  });
});
