/**
 * The server classes callable on the Apex transport. GET calls only methods marked cacheable; POST calls
 * any. Arguments are checked against the method's schema from the contract.
 */
import { z } from '@hono/zod-openapi';
import type { Queryable } from '../db/connection.ts';
import { ContactsQuery } from '../../generated/schemas.ts';
import type { Schemas } from '../../generated/types.ts';
import { ApexError } from './apex-error.ts';
import { JSON_TOO_DEEP_MESSAGE, jsonNestingExceeds } from '../../common/json-nesting.ts';
import { getContacts, getDefaultContacts, getDependentStatePicklistsValues } from './locator.ts';
import type { JsonText } from '../../common/json-text.ts';
import { stableJson } from '../cache/result-cache.ts';

type ApexMethodResult = Schemas['ApexMethodResult'];

interface ApexMethod {
  cacheable: boolean;
  params: z.ZodType;
  run(db: Queryable, params: never): Promise<ApexMethodResult | JsonText<ApexMethodResult>>;
}

const noArguments = z.strictObject({});

const apexClasses: Record<string, Record<string, ApexMethod>> = {
  APT_ContactUsController: {
    getDefaultContacts: { cacheable: true, params: noArguments, run: (db) => getDefaultContacts(db) },
    getDependentStatePicklistsValues: {
      cacheable: true,
      params: noArguments,
      run: (db) => getDependentStatePicklistsValues(db),
    },
    getContacts: {
      cacheable: true,
      params: ContactsQuery,
      run: (db, params: z.infer<typeof ContactsQuery>) => getContacts(db, params),
    },
  },
};

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

/** Parses the GET form's methodParams: URL-encoded JSON, absent when there are no arguments. */
export function parseMethodParams(methodParams: string | undefined): unknown {
  if (methodParams === undefined || methodParams === '') return {};
  if (jsonNestingExceeds(methodParams)) throw new ApexError(400, `methodParams: ${JSON_TOO_DEEP_MESSAGE}`);
  try {
    return JSON.parse(methodParams);
  } catch {
    throw new ApexError(400, 'methodParams is not valid JSON');
  }
}

/** The key of a call of a method with its checked arguments: calls with equal keys have equal answers. */
export function apexCallKey(className: string, methodName: string, params: unknown): string {
  return `${className}.${methodName}:${stableJson(params)}`;
}

interface ApexCall {
  /** The method and its checked arguments (apexCallKey). */
  key: string;
  cacheable: boolean;
  run(db: Queryable): Promise<ApexMethodResult | JsonText<ApexMethodResult>>;
}

/** Finds the method and checks its arguments, without running it. */
export function prepareApex(className: string, methodName: string, params: unknown, via: 'GET' | 'POST'): ApexCall {
  const method =
    Object.hasOwn(apexClasses, className) && Object.hasOwn(apexClasses[className], methodName)
      ? apexClasses[className][methodName]
      : undefined;
  if (!method) throw new ApexError(404, `No such method: ${className}.${methodName}`);
  if (via === 'GET' && !method.cacheable)
    throw new ApexError(400, `${className}.${methodName} is not cacheable: call it with POST`);
  const parsed = method.params.safeParse(params ?? {});
  if (!parsed.success)
    throw new ApexError(400, `Invalid arguments for ${className}.${methodName}: ${describeIssues(parsed.error)}`);
  return {
    key: apexCallKey(className, methodName, parsed.data),
    cacheable: method.cacheable,
    // parsed.data passed the method's own params schema, which is what its run() takes.
    run: (db) => method.run(db, parsed.data as never),
  };
}

export async function invokeApex(
  db: Queryable,
  className: string,
  methodName: string,
  params: unknown,
  via: 'GET' | 'POST',
) {
  const call = prepareApex(className, methodName, params, via);
  return { cacheable: call.cacheable, value: await call.run(db) };
}
