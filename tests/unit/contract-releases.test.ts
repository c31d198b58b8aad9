/**
 * The contract's release gate (scripts/lib/contract-releases.ts, scripts/contract.ts): each kind of breaking
 * change is refused unless the major version is raised and the changelog says "Breaking"; an addition needs
 * a new minor version, a correction of words a patch; the changelog's sections are written from the changes
 * and keep what was written by hand. Last, the gate itself on a copy of the real contract: a removed response
 * property refused, an added optional one let through.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  changelogSection,
  contractChanges,
  handWritten,
  releaseProblems,
  sectionOf,
  withSection,
  type Contract,
} from '../../scripts/lib/contract-releases.ts';

const ROOT = resolve(import.meta.dirname, '../..');

function contract(version = '1.0.0'): Contract {
  return {
    openapi: '3.1.0',
    info: { title: 'Things', version },
    paths: {
      '/things/{id}': {
        get: {
          operationId: 'getThing',
          parameters: [
            { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'fields', in: 'query', schema: { type: 'string' } },
            { name: 'mode', in: 'query', schema: { type: 'string', enum: ['View', 'Edit'] } },
          ],
          responses: {
            '200': {
              description: 'The thing',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
            },
            '404': {
              description: 'No such thing',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Errors' } } },
            },
          },
        },
        patch: {
          operationId: 'updateThing',
          requestBody: {
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: { name: { type: 'string' }, size: { type: ['integer', 'string'] } },
                },
              },
            },
          },
          responses: { '200': { description: 'Updated' } },
        },
      },
    },
    components: {
      schemas: {
        Thing: { type: 'object', required: ['id'], properties: { id: { type: 'string' }, name: { type: 'string' } } },
        Errors: {
          type: 'array',
          items: { type: 'object', properties: { errorCode: { type: 'string' }, message: { type: 'string' } } },
        },
      },
    },
  };
}

type Thing = ReturnType<typeof contract> & { paths: { '/things/{id}': Record<string, any> } }; // eslint-disable-line @typescript-eslint/no-explicit-any
const changed = (version: string, change: (document: Thing) => void): Contract => {
  const document = contract(version) as Thing;
  change(document);
  return document;
};
const get = (document: Thing) => document.paths['/things/{id}'].get;
const body = (document: Thing) => document.paths['/things/{id}'].patch.requestBody.content['application/json'].schema;
const schemas = (document: Thing) => (document.components as { schemas: Record<string, any> }).schemas; // eslint-disable-line @typescript-eslint/no-explicit-any

const BREAKING: Record<string, (document: Thing) => void> = {
  'a removed operation': (document) => delete document.paths['/things/{id}'].patch,
  'a removed parameter': (document) => get(document).parameters.splice(1, 1),
  'a parameter made required': (document) => (get(document).parameters[1].required = true),
  'a removed response property': (document) => delete schemas(document).Thing.properties.name,
  'a request property made required': (document) => (body(document).required = ['name']),
  'a narrowed request type': (document) => (body(document).properties.size.type = 'integer'),
  'a narrowed enum of a parameter': (document) => get(document).parameters[2].schema.enum.pop(),
  'a changed status code': (document) => {
    get(document).responses['201'] = get(document).responses['200'];
    delete get(document).responses['200'];
  },
  'a changed error shape': (document) =>
    (schemas(document).Errors = { type: 'object', properties: { error: { type: 'string' } } }),
};

const changelogWith = (...sections: string[]) => ['# Changelog', '', ...sections].join('\n');

describe('the release gate', () => {
  for (const [what, change] of Object.entries(BREAKING)) {
    it(`refuses ${what} in a minor release, and lets it through in a major one that says so`, () => {
      const minor = changed('1.1.0', change);
      const changes = contractChanges(contract(), minor);
      expect(changes.filter((entry) => entry.kind === 'breaking')).not.toEqual([]);
      const refused = releaseProblems(contract(), minor, changes, changelogWith('## 1.1.0', ''));
      expect(refused.join('\n')).toMatch(/breaking change\(s\) since 1\.0\.0, but the major version is not raised/);

      const major = changed('2.0.0', change);
      const majorChanges = contractChanges(contract(), major);
      expect(releaseProblems(contract(), major, majorChanges, changelogWith('## 2.0.0', '', '### Breaking'))).toEqual(
        [],
      );
      expect(releaseProblems(contract(), major, majorChanges, changelogWith('## 2.0.0', '', 'Words.'))).toEqual([
        'the changelog\'s section of 2.0.0 does not say what breaks ("Breaking")',
      ]);
    });
  }

  it('lets an addition through in a minor release, not in a patch', () => {
    const add = (document: Thing) => {
      get(document).parameters.push({ name: 'q', in: 'query', schema: { type: 'string' } });
      schemas(document).Thing.properties.size = { type: 'integer' };
      get(document).parameters[2].schema.enum.push('Clone');
    };
    const minor = changed('1.1.0', add);
    const changes = contractChanges(contract(), minor);
    expect(changes.map((change) => change.kind)).not.toContain('breaking');
    expect(releaseProblems(contract(), minor, changes, changelogWith('## 1.1.0'))).toEqual([]);
    const patch = changed('1.0.1', add);
    expect(releaseProblems(contract(), patch, contractChanges(contract(), patch), changelogWith('## 1.0.1'))).toEqual([
      'the contract gains operations, parameters, properties or deprecations since 1.0.0: raise at least the minor version',
    ]);
  });

  it('counts a deprecation as an addition, and a correction of words as a patch', () => {
    const deprecated = changed('1.1.0', (document) => (get(document).deprecated = true));
    expect(contractChanges(contract(), deprecated).map((change) => change.kind)).toEqual(['deprecated']);
    const words = changed('1.0.1', (document) => (get(document).responses['200'].description = 'The thing asked for'));
    const changes = contractChanges(contract(), words);
    expect(changes.map((change) => change.kind)).toEqual(['documentation']);
    expect(releaseProblems(contract(), words, changes, changelogWith('## 1.0.1'))).toEqual([]);
  });

  it('wants a newer semantic version and a changelog section', () => {
    expect(releaseProblems(contract(), contract('1.0.0'), [], changelogWith('## 1.0.0'))).toEqual([
      'info.version 1.0.0 is not newer than the last release, 1.0.0',
    ]);
    expect(releaseProblems(contract(), contract('1.1'), [], '')).toEqual([
      'info.version "1.1" is not a semantic version (MAJOR.MINOR.PATCH)',
    ]);
    expect(releaseProblems(undefined, contract(), [], changelogWith('## 0.9.0'))).toEqual([
      'CHANGELOG.md has no section "## 1.0.0"',
    ]);
  });
});

describe('the changelog', () => {
  it('writes a release section from its changes, by kind, each line an operation', () => {
    const next = changed('2.0.0', (document) => {
      delete schemas(document).Thing.properties.name;
      get(document).parameters.push({ name: 'q', in: 'query', schema: { type: 'string' } });
    });
    const section = sectionOf(next, contract(), contractChanges(contract(), next), '2026-11-28');
    expect(section).toBe(
      [
        '## 2.0.0 (2026-11-28)',
        '',
        '### Breaking',
        '',
        '- `getThing` (GET /things/{id}): [Removed] property `name` in Response 200 content (application/json)',
        '',
        '### Added and changed',
        '',
        '- `getThing` (GET /things/{id}): [Added] query parameter `q`',
        '',
      ].join('\n'),
    );
  });

  it('keeps the sentences written by hand when a section is written again, newest first', () => {
    const changelog = changelogWith('## 1.0.0 (2026-11-01)', '', 'The first release: 2 operations.', '');
    const first = withSection(changelog, '1.1.0', '## 1.1.0 (2026-11-27)\n\n### Added and changed\n\n- a\n');
    const edited = first.replace('## 1.1.0 (2026-11-27)\n', '## 1.1.0 (2026-11-27)\n\nWhy it changed.\n');
    const kept = handWritten(changelogSection(edited, '1.1.0')!);
    expect(kept).toBe('Why it changed.');
    const again = withSection(edited, '1.1.0', sectionOf(contract('1.1.0'), contract(), [], '2026-11-28', kept));
    expect(again).toBe(
      changelogWith(
        '## 1.1.0 (2026-11-28)',
        '',
        'Why it changed.',
        '',
        'No change since 1.0.0.',
        '',
        '## 1.0.0 (2026-11-01)',
        '',
        'The first release: 2 operations.',
        '',
      ),
    );
  });
});

describe('the gate on a copy of the real contract (npm run contract:check)', () => {
  const run = promisify(execFile);
  /** The last release (the bundle on main is it), and the next minor and patch versions after it. */
  const last = (JSON.parse(readFileSync(resolve(ROOT, 'generated/openapi.json'), 'utf8')) as Contract).info.version;
  const [major, minor, patch] = last.split('.').map(Number);
  const nextMinor = `${major}.${minor + 1}.0`;
  const nextPatch = `${major}.${minor}.${patch + 1}`;
  const escaped = (text: string) => text.replaceAll('.', '\\.');
  const gate = async (change: (document: Contract) => void, version = nextMinor) => {
    const work = mkdtempSync(join(tmpdir(), 'contract-gate-'));
    cpSync(resolve(ROOT, 'openapi/releases'), join(work, 'releases'), { recursive: true });
    const released = JSON.parse(readFileSync(resolve(ROOT, 'generated/openapi.json'), 'utf8')) as Contract;
    const next = structuredClone(released);
    next.info.version = version;
    change(next);
    writeFileSync(join(work, 'next.json'), JSON.stringify(next));
    writeFileSync(join(work, 'CHANGELOG.md'), changelogWith(`## ${version}`, '', 'A test release.', ''));
    const args = ['tsx', 'scripts/contract.ts', 'release', '--contract', join(work, 'next.json')];
    args.push('--releases', join(work, 'releases'), '--changelog', join(work, 'CHANGELOG.md'));
    const written = () => ({
      release: existsSync(join(work, 'releases', `${version}.json`)),
      changelog: readFileSync(join(work, 'CHANGELOG.md'), 'utf8'),
    });
    return run('npx', args, { cwd: ROOT }).then(
      ({ stdout }) => ({ code: 0, output: stdout, ...written() }),
      (error: { code: number; stdout: string; stderr: string }) => ({
        code: error.code,
        output: error.stdout + error.stderr,
        ...written(),
      }),
    );
  };
  /** The record representation, as getRecord answers it. */
  const record = (document: Contract) =>
    (document.components as { schemas: Record<string, { properties: Record<string, unknown> }> }).schemas
      .RecordRepresentation;

  it('refuses a removed response property in a minor release', { timeout: 120_000 }, async () => {
    const { code, output, release, changelog } = await gate(
      (document) => delete record(document).properties.lastModifiedDate,
    );
    expect(code).toBe(1);
    // Refused, it writes neither the release copy nor a changelog section.
    expect(release).toBe(false);
    expect(changelog).not.toContain('[Removed]');
    expect(output).toMatch(
      new RegExp(`breaking change\\(s\\) since ${escaped(last)}, but the major version is not raised`),
    );
    expect(output).toMatch(
      /`getRecord` \(GET \/services\/data\/v65\.0\/ui-api\/records\/\{recordId\}\): \[Removed\] .*lastModifiedDate/,
    );
  });

  it('lets an added optional response property through in a minor release', { timeout: 120_000 }, async () => {
    const { code, output, release, changelog } = await gate(
      (document) => (record(document).properties.weight = { type: 'integer' }),
    );
    expect(release).toBe(true);
    expect(changelog).toMatch(/\[Added\] property `weight`/);
    expect(output).toMatch(
      new RegExp(
        `contract: ${escaped(nextMinor)} against ${escaped(last)}: 0 breaking, 0 deprecated, [1-9]\\d* compatible`,
      ),
    );
    expect(output).toContain(`contract: ${nextMinor} may be released`);
    expect(code).toBe(0);
  });

  it(
    'finds no change in a contract compared with itself, so that a correction of words is a patch',
    { timeout: 120_000 },
    async () => {
      const { code, output } = await gate((document) => {
        document.info.description = `${String(document.info.description)}\nOne more sentence.`;
      }, nextPatch);
      expect(output).toContain(`contract: ${nextPatch} against ${last}: 0 breaking, 0 deprecated, 0 compatible`);
      expect(code).toBe(0);
    },
  );
});
