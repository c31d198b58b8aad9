/** Security requirements of the contract: which operations a caller without a session may call. */

export type SecurityRequirement = Record<string, string[]>;

/**
 * Whether a caller without credentials may call an operation: its security (the document's, when it has
 * none of its own) is empty, or lists the empty requirement {}.
 */
export function guestMayCall(
  operationSecurity: SecurityRequirement[] | undefined,
  documentSecurity: SecurityRequirement[] | undefined,
): boolean {
  const security = operationSecurity ?? documentSecurity ?? [];
  return security.length === 0 || security.some((requirement) => Object.keys(requirement).length === 0);
}
