/**
 * Turns an action's Moleculer `params` (fastest-validator rules, the ones the broker
 * validates every call with) into JSON Schema 2020-12, the dialect of OpenAPI 3.1.
 * Only the rule types and options this platform uses map to exact keywords; any other
 * rule becomes an open schema that says which rule it is, so the document never
 * claims a constraint the validator does not apply.
 */
export type JsonSchema = { [keyword: string]: unknown };

/**
 * An object whose keys and values are free (fastest-validator's `object` without props).
 * JSON Schema admits any properties by default, but generators read an object without
 * `properties` or `additionalProperties` as an empty one (openapi-typescript types it
 * Record<string, never>), so the document says it outright.
 */
export const FREE_OBJECT: JsonSchema = Object.freeze({ type: "object", additionalProperties: true });

type Rule = string | RuleObject | readonly (string | RuleObject)[];
interface RuleObject {
	type?: string;
	optional?: boolean;
	default?: unknown;
	[option: string]: unknown;
}

/** "string|optional|min:3" and friends. */
function parseShorthand(rule: string): RuleObject {
	const [type, ...flags] = rule.split("|");
	const out: RuleObject = { type: type.trim() };
	for (const flag of flags) {
		const [key, value] = flag.split(":");
		out[key.trim()] = value === undefined ? true : Number.isNaN(Number(value)) ? value : Number(value);
	}
	return out;
}

function normalize(rule: string | RuleObject): RuleObject {
	return typeof rule === "string" ? parseShorthand(rule) : rule;
}

function isOptional(rule: Rule): boolean {
	if (Array.isArray(rule)) return rule.every(r => isOptional(r));
	const r = normalize(rule as string | RuleObject);
	return r.optional === true || r.default !== undefined;
}

function stringSchema(r: RuleObject): JsonSchema {
	const s: JsonSchema = { type: "string" };
	if (typeof r.min === "number") s.minLength = r.min;
	if (typeof r.max === "number") s.maxLength = r.max;
	if (typeof r.length === "number") s.minLength = s.maxLength = r.length;
	if (r.empty === false && s.minLength === undefined) s.minLength = 1;
	if (r.pattern instanceof RegExp) s.pattern = r.pattern.source;
	else if (typeof r.pattern === "string") s.pattern = r.pattern;
	if (Array.isArray(r.enum)) s.enum = r.enum;
	return s;
}

function ruleSchema(rule: Rule): JsonSchema {
	if (Array.isArray(rule)) return { anyOf: rule.map(r => ruleSchema(r)) };
	const r = normalize(rule as string | RuleObject);
	let s: JsonSchema;
	switch (r.type) {
		case "string":
			s = stringSchema(r);
			break;
		case "email":
			s = { ...stringSchema(r), format: "email" };
			break;
		case "uuid":
			s = { type: "string", format: "uuid" };
			break;
		case "url":
			s = { type: "string", format: "uri" };
			break;
		case "date":
			s = { type: "string", format: "date-time" };
			break;
		case "number":
			s = { type: r.integer === true ? "integer" : "number" };
			if (typeof r.min === "number") s.minimum = r.min;
			if (typeof r.max === "number") s.maximum = r.max;
			if (r.positive === true) s.exclusiveMinimum = 0;
			break;
		case "boolean":
			s = { type: "boolean" };
			break;
		case "enum":
			s = { enum: [...((r.values as unknown[]) ?? [])] };
			break;
		case "equal":
			s = { const: r.value };
			break;
		case "array":
			s = { type: "array" };
			if (r.items !== undefined) s.items = ruleSchema(r.items as Rule);
			if (typeof r.min === "number") s.minItems = r.min;
			if (typeof r.max === "number") s.maxItems = r.max;
			break;
		case "object":
			s = r.props || r.properties ? objectSchema((r.props ?? r.properties) as Record<string, Rule>, r.strict === true || r.strict === "remove") : { ...FREE_OBJECT };
			break;
		case "record":
			s = { type: "object", additionalProperties: r.value !== undefined ? ruleSchema(r.value as Rule) : {} };
			if (r.key !== undefined) s.propertyNames = ruleSchema(r.key as Rule);
			break;
		case "any":
			s = {};
			break;
		default:
			s = { description: `Checked by the '${String(r.type)}' rule.` };
	}
	if (r.default !== undefined && typeof r.default !== "function") s.default = r.default;
	return s;
}

/**
 * An object's properties; strict (or "remove") objects admit no others. With "remove"
 * the validator drops unknown keys rather than refusing them, so they are not refused here either.
 */
export function objectSchema(props: Record<string, Rule>, strict: boolean): JsonSchema {
	const properties: Record<string, JsonSchema> = {};
	const required: string[] = [];
	for (const [name, rule] of Object.entries(props)) {
		if (name.startsWith("$$")) continue;
		properties[name] = ruleSchema(rule);
		if (!isOptional(rule)) required.push(name);
	}
	const s: JsonSchema = { type: "object", properties };
	if (required.length > 0) s.required = required;
	if (strict) s.additionalProperties = false;
	return s;
}

/** An action's `params` as one object schema; `$$strict: true` closes it. */
export function paramsSchema(params: Record<string, unknown> | undefined): JsonSchema {
	const p = (params ?? {}) as Record<string, Rule> & { $$strict?: unknown };
	return objectSchema(p, p.$$strict === true);
}

export { ruleSchema };
