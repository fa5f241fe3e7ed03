import type { Role } from "./principal.js";

/**
 * Which stored provider configurations need more than an operator, by name (BENCHWRIGHT_PROVIDER_ROLES):
 * `local` runs the catalogue's scripts on the server's own host, so it is the admin's by default.
 * `inline` stands for every configuration sent in a request (Form B), which may be `local` too.
 */
export const DEFAULT_PROVIDER_ROLES: Readonly<Record<string, Role>> = { local: "admin", inline: "admin" };

const RANK: Record<Role, number> = { viewer: 0, operator: 1, admin: 2 };
const ROLES = Object.keys(RANK) as Role[];

interface SpecOperations {
  security?: SecurityRequirement[];
  paths: Record<string, Record<string, unknown> | undefined>;
}
type SecurityRequirement = Record<string, string[]>;

/**
 * The least role each operation's token needs, by operationId, as the contract's security
 * requirements name it (`[{bearerAuth: [operator]}, {}]`): the one table the server enforces,
 * read from the bundled contract rather than written twice. An operation naming no role (or a
 * name that is no role) fails here, at startup, not on a request.
 */
export function requiredRoles(spec: SpecOperations): Map<string, Role> {
  const roles = new Map<string, Role>();
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(item ?? {})) {
      const operation = op as { operationId?: string; security?: SecurityRequirement[] } | undefined;
      if (!operation?.operationId) continue;
      const named = (operation.security ?? spec.security ?? []).flatMap((r) => r.bearerAuth ?? []);
      const role = named.find((n): n is Role => ROLES.includes(n as Role));
      if (!role || named.length !== 1)
        throw new Error(`${method.toUpperCase()} ${path} (${operation.operationId}) must name one role of ${ROLES.join(", ")} in its bearerAuth requirement`);
      roles.set(operation.operationId, role);
    }
  }
  return roles;
}

/** Whether `role` is at least `needed`. */
export function hasRole(role: Role, needed: Role): boolean {
  return RANK[role] >= RANK[needed];
}
