/**
 * Pieces of OpenAPI operations that depend on the declarations alone: an answer's
 * media types and headers, and a request body with its example.
 */
import type { AnswerDoc } from "./types";

function content(answer: AnswerDoc): Record<string, unknown> | undefined {
	if (!answer.schema) return undefined;
	const types = typeof answer.contentType === "string" ? [answer.contentType] : (answer.contentType ?? ["application/json"]);
	return Object.fromEntries(types.map(t => [t, { schema: answer.schema }]));
}

/** An OpenAPI response object from an answer's declaration. */
export function answer(a: AnswerDoc): Record<string, unknown> {
	const out: Record<string, unknown> = { description: a.description };
	const c = content(a);
	if (c) out.content = c;
	if (a.headers) out.headers = Object.fromEntries(Object.entries(a.headers).map(([h, d]) => [h, { description: d, schema: { type: "string" } }]));
	return out;
}

/** The declaration's example body on the body's first media type (test/integration/openapi-examples.test.ts sends each). */
export function withExample(body: unknown, example: unknown): unknown {
	if (example === undefined) return body;
	const content = (body as { content: Record<string, Record<string, unknown>> }).content;
	const first = Object.keys(content)[0];
	return { ...(body as object), content: { ...content, [first]: { ...content[first], example } } };
}
