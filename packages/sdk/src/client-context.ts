import type { Client, HeadersOptions } from "openapi-fetch";
import { BenchwrightProblemError } from "./errors.js";
import { followPages, LIST_QUERY_SERIALIZER, readPage, type FollowOptions, type Page, type PageOptions } from "./lists.js";
import type { paths } from "./generated/schema.js";

/** The openapi-fetch client typed with the contract: it returns `{ data, error, response }` and never throws on HTTP errors. */
export type RawClient = Client<paths>;

/** Options of one call. */
export interface RequestOptions {
  /** Extra headers for this call only. */
  headers?: HeadersOptions;
  signal?: AbortSignal;
}

/** Options of a call whose operation accepts a fields mask. */
export interface CallOptions extends RequestOptions {
  /** Sent as `X-Fields`: a fields mask such as `id,state` or `id,provider{id}`. */
  fields?: string;
}

/** How many records the following iterators (`sessions()`, `executions()`...) ask for at a time, unless told. */
const FOLLOW_PAGE_SIZE = 100;

/** What an openapi-fetch call resolves to. */
type RawAnswer<T> = Promise<{ data?: T; error?: unknown; response: Response }>;

/**
 * The contract describes each answer an `X-Fields` mask can cut down as `anyOf: [Whole, Masked]`
 * (so that a masked answer is no contract violation), and the raw client's types say so. The
 * typed methods give the whole record, whose fields are not optional: that is what the server
 * answers when no mask is sent. `T` is the whole type, taken from the method's declared result
 * (hence `NoInfer`), and the raw answer is checked against it.
 */
async function unwrap<T>(pending: RawAnswer<NoInfer<T> | Masked<NoInfer<T>>>): Promise<T> {
  const { data, error, response } = await pending;
  if (!response.ok) throw BenchwrightProblemError.from(error, response);
  return data as T;
}

/** What a mask can leave of a value: any of its fields, at any depth. */
type Masked<T> = T extends readonly (infer E)[] ? Masked<E>[] : T extends object ? { [K in keyof T]?: Masked<T[K]> } : T;

/**
 * An operation that answers JSON or text by what it is asked (a report's `format`, telemetry's
 * CSV): the method reads the one it asks for, so its answer is taken as `T`.
 */
function unwrapAs<T>(pending: Promise<{ error?: unknown; response: Response }>): Promise<T> {
  return unwrap<T>(pending as RawAnswer<T>);
}

function init(options: RequestOptions | undefined) {
  return { headers: options?.headers, signal: options?.signal };
}

// The lists answer the seed's plain arrays; a page's next cursor comes in a header.
function listInit(options: RequestOptions | undefined) {
  return { querySerializer: LIST_QUERY_SERIALIZER, ...init(options) };
}

function fieldsHeader(options: CallOptions | undefined) {
  return options?.fields === undefined ? undefined : { "X-Fields": options.fields };
}

/** A list's every item, from its first page (which, unpaged, holds all of them). */
async function itemsOf<T>(page: Promise<Page<T>>): Promise<T[]> {
  return (await page).items;
}

/** The items of a list, page after page (`pageSize` at a time, 100 by default) as the loop goes. */
function follow<T, O extends FollowOptions>(options: O | undefined, page: (options: O & PageOptions) => Promise<Page<T>>): AsyncIterable<T> {
  return followPages((cursor) => page({ ...(options as O), limit: options?.pageSize ?? FOLLOW_PAGE_SIZE, cursor }));
}

/** What each resource's methods are made of: the raw client and the shared ways to call it. */
export interface ClientContext {
  readonly raw: RawClient;
  /** The success body of a call, or a thrown {@link BenchwrightProblemError}. */
  readonly unwrap: typeof unwrap;
  readonly unwrapAs: typeof unwrapAs;
  /** A call's headers and signal. */
  readonly init: typeof init;
  /** A list call's: the list query serializer too. */
  readonly listInit: typeof listInit;
  /** The `X-Fields` header of a call's fields mask. */
  readonly fieldsHeader: typeof fieldsHeader;
  /** One page of a list call: its items and the next cursor. */
  readonly readPage: typeof readPage;
  readonly itemsOf: typeof itemsOf;
  readonly follow: typeof follow;
}

export function clientContext(raw: RawClient): ClientContext {
  return { raw, unwrap, unwrapAs, init, listInit, fieldsHeader, readPage, itemsOf, follow };
}
