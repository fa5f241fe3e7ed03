import { BenchwrightProblemError, type BenchwrightClient, type Session, type Whoami } from "@benchwright/sdk";
import { api } from "./api.js";

let asked: { client: BenchwrightClient; answer: Promise<Whoami | undefined> } | undefined;

/**
 * Who the page's token signs in as (`GET /whoami`), asked once per token. Undefined from a server
 * without the operation (404): the page then offers every action and lets the server refuse.
 * A 401 is thrown, for the page to ask for the token.
 */
export function caller(): Promise<Whoami | undefined> {
  const client = api();
  if (asked?.client !== client) {
    const answer = client.whoami().catch((error: unknown) => {
      if (error instanceof BenchwrightProblemError && error.status === 404) return undefined;
      asked = undefined; // a failed answer is not kept: the next page asks again
      throw error;
    });
    asked = { client, answer };
  }
  return asked.answer;
}

/** Whether the caller may create sessions and executions, and run steps: an operator or an admin. */
export function mayCreate(who: Whoami | undefined): boolean {
  return who?.role !== "viewer";
}

/** Whether the caller may share or delete this session: an admin, or the operator who owns it. */
export function mayChange(who: Whoami | undefined, session: Pick<Session, "owner">): boolean {
  if (!who) return true;
  return who.role === "admin" || (who.role === "operator" && session.owner === who.principal);
}

/** What the header says of who is signed in: `vic · viewer`; the bootstrap admin as such. */
export function signedInText(who: Whoami): string {
  return who.bootstrap ? "admin · the server's own token" : `${who.principal} · ${who.role}`;
}
