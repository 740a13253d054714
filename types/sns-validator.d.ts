declare module "sns-validator" {
	class MessageValidator {
		constructor(hostPattern?: RegExp, encoding?: string);
		validate(message: object | string, cb: (err: Error | null, message?: object) => void): void;
	}
	export = MessageValidator;
}
