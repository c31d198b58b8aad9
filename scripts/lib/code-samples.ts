/**
 * The code samples of the docs page (x-codeSamples): for every operation, its contract example as a call of the
 * generated client and as curl, against the local server (`npm start`, http://127.0.0.1:3000). An operation
 * only a signed-in user may call signs in first, as the demo administrator (DEMO_ADMIN_PASSWORD, README).
 * tests/contract/code-samples.test.ts runs the curl samples and type-checks the client ones.
 */
import { contractExamples, type ExampleInput } from './contract-examples.ts';
import { guestMayCall } from './security.ts';

type Json = Record<string, unknown>;

export const LOCAL_SERVER = 'http://127.0.0.1:3000';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const SESSION_PATH = '/services/auth/session';

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

/** A word for the shell, in single quotes. */
const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** The URL of the example request: path parameters filled in, query parameters as the client sends them. */
function exampleUrl(path: string, input: ExampleInput): string {
  const filled = path.replace(/\{([^}]+)\}/g, (_match, name: string) =>
    encodeURIComponent(String(input.path?.[name] ?? `{${name}}`)),
  );
  const query = new URLSearchParams(Object.entries(input.query ?? {}).map(([name, value]) => [name, String(value)]));
  return `${LOCAL_SERVER}${filled}${query.size ? `?${query}` : ''}`;
}

const SIGN_IN = [
  '# Sign in as the demo administrator; the session cookie is kept in cookies.txt.',
  `curl -sS -c cookies.txt -o /dev/null -H 'Content-Type: application/json' \\`,
  `  -d '{"username":"admin@northgate.example","password":"'"$DEMO_ADMIN_PASSWORD"'"}' \\`,
  `  ${LOCAL_SERVER}${SESSION_PATH}`,
].join('\n');

function curlSample(method: string, path: string, input: ExampleInput, guest: boolean): string {
  const words = ['curl -sS'];
  if (!guest) words.push('-b cookies.txt');
  if (method !== 'get') words.push(`-X ${method.toUpperCase()}`);
  // A state-changing call shows that it comes from the site (the CSRF defence, README).
  if (method !== 'get') words.push(`-H ${shellQuote(`Origin: ${LOCAL_SERVER}`)}`);
  for (const [name, value] of Object.entries(input.header ?? {}))
    words.push(`-H ${shellQuote(`${name}: ${String(value)}`)}`);
  if (input.body !== undefined)
    words.push(`-H 'Content-Type: application/json'`, `-d ${shellQuote(JSON.stringify(input.body))}`);
  words.push(shellQuote(exampleUrl(path, input)));
  const call = words.join(' \\\n  ');
  return guest ? call : `${SIGN_IN}\n${call}`;
}

function clientSample(operationId: string, input: ExampleInput, guest: boolean, inputOptional: boolean): string {
  const options = guest
    ? `{ baseUrl: '${LOCAL_SERVER}' }`
    : `{ baseUrl: '${LOCAL_SERVER}', headers: { Cookie: \`sid=\${process.env.SID}\` } }`;
  const given = Object.keys(input).length || !inputOptional ? `, ${JSON.stringify(input, null, 2)}` : '';
  return [
    `import { createApiClient, ${operationId} } from 'contact-us-client';`,
    '',
    ...(guest ? [] : ['// SID: the session cookie of a signed-in user (the curl sample signs in and keeps it).']),
    `const api = createApiClient(${options});`,
    `const answer = await ${operationId}(api${given});`,
    'console.log(answer);',
  ].join('\n');
}

/** The code samples of every operation of the bundle, by operationId. */
export function codeSamples(contract: Json): Map<string, CodeSample[]> {
  const examples = contractExamples(contract);
  const samples = new Map<string, CodeSample[]>();
  for (const [path, pathItem] of Object.entries(contract.paths as Record<string, Json>))
    for (const method of METHODS) {
      const operation = pathItem[method] as Json | undefined;
      if (!operation) continue;
      const operationId = String(operation.operationId);
      const node = { operationId, operation, pathItem };
      const input = examples.exampleInput(node);
      const guest = guestMayCall(
        operation.security as Record<string, string[]>[] | undefined,
        contract.security as Record<string, string[]>[] | undefined,
      );
      const parameters = examples.parametersOf(node);
      const inputOptional =
        !parameters.some((parameter) => parameter.in === 'path' || parameter.required) &&
        !(examples.resolveRef<{ required?: boolean }>(operation.requestBody ?? {}).required ?? false);
      samples.set(operationId, [
        { lang: 'TypeScript', label: 'Client', source: clientSample(operationId, input, guest, inputOptional) },
        { lang: 'Shell', label: 'curl', source: curlSample(method, path, input, guest) },
      ]);
    }
  return samples;
}
