/** The part of mailparser the tests use (the package ships no types). */
declare module "mailparser" {
	interface AddressObject {
		value: { address?: string; name?: string }[];
		text: string;
	}
	interface ParsedMail {
		subject?: string;
		text?: string;
		html?: string | false;
		to?: AddressObject | AddressObject[];
		headers: Map<string, unknown>;
	}
	export function simpleParser(source: Buffer | string): Promise<ParsedMail>;
}
