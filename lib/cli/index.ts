/**
 * `npx auth-notify <command>` (bin/auth-notify.js runs this file from dist/): the
 * operator's command line. Commands about a running platform talk to it over HTTP as
 * an administrator; admin create, keys rotate --unsubscribe, outbox and doctor read
 * the configuration (the environment, or --dotenv) themselves. Exit codes: 0 done,
 * 1 failed (a refusal, a dependency down, a problem found), 2 a command line that
 * cannot run. --json prints one JSON document on stdout, also for failures.
 */
import { parseArgs, type ParseArgsOptionDescriptor } from "node:util";
import { commandLineDefaults, commandLineEnv, type Env } from "../config";
import { COMMANDS, type Command, type Values } from "./commands";
import { CommandFailure, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError } from "./output";
import { PlatformClient } from "./platform";

type Option = ParseArgsOptionDescriptor & { description: string };

const GLOBAL_OPTIONS: Record<string, Option> = {
	url: { type: "string", description: "The platform's address (default PUBLIC_URL, else http://localhost:PORT)" },
	email: { type: "string", description: "The administrator's email (default BOOTSTRAP_ADMIN_EMAIL)" },
	password: { type: "string", description: "The administrator's password (default BOOTSTRAP_ADMIN_PASSWORD)" },
	token: { type: "string", description: "An administrator's access token, instead of signing in" },
	dotenv: { type: "string", description: "Read variables from this file too (the process's own win), as node --env-file reads one" },
	json: { type: "boolean", description: "Print one JSON document" },
	help: { type: "boolean", short: "h", description: "Print this help" }
};

const usageLine = (c: Command) => `auth-notify ${[...c.words, ...c.args.map(a => `<${a}>`)].join(" ")}`;

function optionLines(options: Record<string, Option>): string[] {
	return Object.entries(options).map(([name, o]) => `  --${name}${o.type === "string" ? " <value>" : ""}`.padEnd(28) + o.description);
}

export function usage(command?: Command): string {
	if (command) {
		return [`Usage: ${usageLine(command)} [options]`, "", command.summary, "", "Options:", ...optionLines({ ...command.options, ...GLOBAL_OPTIONS })].join("\n");
	}
	const width = Math.max(...COMMANDS.map(c => usageLine(c).length)) + 2;
	return [
		"Usage: auth-notify <command> [options]",
		"",
		"Commands:",
		...COMMANDS.map(c => `  ${usageLine(c).padEnd(width)}${c.summary}`),
		"",
		"Options of every command:",
		...optionLines(GLOBAL_OPTIONS),
		"",
		"Exit codes: 0 done, 1 failed, 2 usage error. See docs/cli.md."
	].join("\n");
}

/** Every option any command has, so the first look at the line reads values as values. */
const ALL_OPTIONS: Record<string, Option> = Object.assign({}, ...COMMANDS.map(c => c.options ?? {}), GLOBAL_OPTIONS);

function findCommand(positionals: string[]): Command | undefined {
	return [...COMMANDS].sort((a, b) => b.words.length - a.words.length).find(c => c.words.every((w, i) => positionals[i] === w));
}

interface Output {
	out(text: string): void;
	err(text: string): void;
}

/** Runs one command line; answers the exit code. */
export async function run(argv: string[], io: Output, baseEnv?: Env): Promise<number> {
	const wantsJson = argv.includes("--json");
	const fail = (code: number, error: { code: string; message: string; status?: number; fix?: string }) => {
		if (wantsJson) io.out(JSON.stringify({ error }, null, 2));
		io.err(`${error.message}${error.fix ? `\n${error.fix}` : ""}`);
		return code;
	};
	let command: Command | undefined;
	try {
		const first = parseArgs({ args: argv, options: ALL_OPTIONS, allowPositionals: true, strict: false });
		const positionals = first.positionals;
		command = findCommand(positionals);
		if (!command) {
			if (positionals.length === 0 && first.values.help) {
				io.out(usage());
				return EXIT_OK;
			}
			throw new UsageError(positionals.length === 0 ? "Name a command." : `Unknown command: ${positionals.join(" ")}`);
		}
		const parsed = parseArgs({ args: argv, options: { ...command.options, ...GLOBAL_OPTIONS }, allowPositionals: true, strict: true });
		const values = parsed.values as Values;
		if (values.help) {
			io.out(usage(command));
			return EXIT_OK;
		}
		const args = parsed.positionals.slice(command.words.length);
		if (args.length !== command.args.length) {
			throw new UsageError(`${command.words.join(" ")} takes ${command.args.length === 0 ? "no arguments" : command.args.map(a => `<${a}>`).join(" ")}`);
		}
		let env: Env;
		try {
			env = baseEnv ?? commandLineEnv(values.dotenv as string | undefined);
		} catch (err) {
			throw new UsageError(`--dotenv cannot be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
		}
		const defaults = commandLineDefaults(env);
		const adminEmail = (values.email as string | undefined) ?? defaults.adminEmail;
		const adminPassword = (values.password as string | undefined) ?? defaults.adminPassword;
		let client: PlatformClient | undefined;
		const url = ((values.url as string | undefined) ?? defaults.url).replace(/\/+$/, "");
		if (values.url !== undefined && !URL.canParse(url)) throw new UsageError(`--url is not a URL: ${url}`);
		const outcome = await command.run({
			env,
			args,
			values,
			adminEmail,
			adminPassword,
			url: values.url === undefined ? undefined : url,
			platform: () => (client ??= new PlatformClient(url, { token: values.token as string | undefined, email: adminEmail, password: adminPassword }))
		});
		io.out(wantsJson ? JSON.stringify(outcome.json, null, 2) : outcome.text);
		return outcome.ok === false ? EXIT_FAILURE : EXIT_OK;
	} catch (err) {
		if (err instanceof UsageError || (err as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
			return fail(EXIT_USAGE, { code: "USAGE", message: `${(err as Error).message}\n\n${usage(command)}` });
		}
		if (err instanceof CommandFailure) return fail(EXIT_FAILURE, { code: err.code, message: err.message, status: err.status, fix: err.fix });
		return fail(EXIT_FAILURE, { code: "ERROR", message: (err as Error).stack ?? String(err) });
	}
}

if (require.main === module) {
	run(process.argv.slice(2), { out: t => process.stdout.write(`${t}\n`), err: t => process.stderr.write(`${t}\n`) }).then(
		code => {
			process.exitCode = code;
		},
		err => {
			process.stderr.write(`${(err as Error).stack}\n`);
			process.exitCode = EXIT_FAILURE;
		}
	);
}
