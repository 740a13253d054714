/**
 * A running platform's own OpenAPI document (GET /openapi.json), and the check that an
 * answer is one it declares: the status is documented for the operation, the headers
 * it marks required came, and the body matches the schema of its content type
 * (problem documents included), by a JSON Schema 2020-12 validator.
 */
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { http, type HttpResult } from "./platform";

const DOC_ID = "urn:auth-notify:openapi";

interface Media {
	schema: object;
	example?: unknown;
}

export interface Operation {
	operationId: string;
	requestBody?: { content: Record<string, Media> };
	responses: Record<string, { headers?: Record<string, { $ref?: string; required?: boolean }>; content?: Record<string, Media> }>;
}

export interface ApiDocument {
	paths: Record<string, Record<string, Operation>>;
	components: { schemas: Record<string, object>; headers: Record<string, { required?: boolean }> };
}

export class DocumentedAnswers {
	/** "METHOD template" of every operation an answer was checked for. */
	readonly checked = new Set<string>();
	private readonly ajv = new Ajv2020({ strict: false, allErrors: true });

	private constructor(readonly doc: ApiDocument) {
		addFormats(this.ajv);
		this.ajv.addSchema({ $id: DOC_ID, components: doc.components });
	}

	/** The document the platform at `baseUrl` serves; its own answer is the first one checked. */
	static async load(baseUrl: string): Promise<DocumentedAnswers> {
		const res = await http(baseUrl, "GET", "/openapi.json");
		expect(res.status).toBe(200);
		const answers = new DocumentedAnswers(res.body);
		answers.conforms("GET", "/openapi.json", res);
		return answers;
	}

	operation(method: string, template: string): Operation | undefined {
		return this.doc.paths[template]?.[method.toLowerCase()];
	}

	/** The answer must be documented for the operation at `template`, with its required headers, and its body match the schema for its content type. */
	conforms(method: string, template: string, res: HttpResult): void {
		const label = `${method} ${template} answered ${res.status}`;
		const op = this.operation(method, template);
		expect({ label, documented: Boolean(op) }).toEqual({ label, documented: true });
		const documented = op!.responses[String(res.status)];
		expect({ label, statusDocumented: Boolean(documented), body: documented ? undefined : res.body }).toEqual({ label, statusDocumented: true, body: undefined });
		const requiredHeaders = Object.entries(documented.headers ?? {})
			.filter(([, h]) => (h.$ref ? this.doc.components.headers[h.$ref.split("/").pop()!] : h)?.required)
			.map(([name]) => name);
		expect({ label, missingHeaders: requiredHeaders.filter(h => res.headers.get(h) === null) }).toEqual({ label, missingHeaders: [] });
		this.checked.add(`${method} ${template}`);
		if (!documented.content) return;
		const type = (res.headers.get("content-type") ?? "").split(";")[0].trim();
		const media = documented.content[type];
		expect({ label, type, typeDocumented: Boolean(media) }).toEqual({ label, type, typeDocumented: true });
		if (type.endsWith("json")) {
			const schema = JSON.parse(JSON.stringify(media.schema).replaceAll('"#/components/', `"${DOC_ID}#/components/`));
			const valid = this.ajv.validate(schema, res.body);
			expect({ label, errors: valid ? null : this.ajv.errors }).toEqual({ label, errors: null });
		}
	}
}
