// The counterpart of scripts/masked-answers.mjs, at run time: the bundle describes each answer
// an X-Fields mask can cut down as `anyOf: [Whole, Masked]` and marks its media type. A check
// that sees the answer before the mask is applied (the server's own response validation)
// wants the whole record only, so that a missing required field is still caught.

const MASKED_MARK = "x-fields-masked";

type Media = { schema?: { anyOf?: unknown[] }; [MASKED_MARK]?: boolean };
type Responses = Record<string, { content?: Record<string, Media> } | undefined>;

/** A copy of the bundled contract whose masked answers are their whole records again. */
export function wholeAnswers<T extends object>(spec: T): T {
  const copy = structuredClone(spec) as T & {
    paths?: Record<string, Record<string, { responses?: Responses } | unknown>>;
    components?: { responses?: Responses };
  };
  const visit = (responses: Responses | undefined) => {
    for (const response of Object.values(responses ?? {})) {
      for (const media of Object.values(response?.content ?? {})) {
        if (media[MASKED_MARK] && media.schema?.anyOf) {
          media.schema = media.schema.anyOf[0] as Media["schema"];
          delete media[MASKED_MARK];
        }
      }
    }
  };
  visit(copy.components?.responses);
  for (const item of Object.values(copy.paths ?? {})) {
    for (const [method, op] of Object.entries(item)) {
      if (method !== "parameters") visit((op as { responses?: Responses } | undefined)?.responses);
    }
  }
  return copy;
}
