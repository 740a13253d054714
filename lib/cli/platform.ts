/**
 * The command line's HTTP client for a running platform: signs in as an administrator
 * (POST /auth/login) unless given a token, and turns every refusal into a
 * CommandFailure carrying the problem's code and detail.
 */
import { CommandFailure, UsageError } from "./output";

export interface Credentials {
	token?: string;
	email?: string;
	password?: string;
}

export interface Answer<T> {
	status: number;
	body: T;
}

interface Problem {
	code?: string;
	detail?: string;
	title?: string;
}

const REQUEST_TIMEOUT_MS = 15_000;

export class PlatformClient {
	private token: string | undefined;

	constructor(
		readonly url: string,
		private readonly credentials: Credentials
	) {
		this.token = credentials.token;
	}

	/** The administrator this client signs in as (when it signs in with a password). */
	get email(): string | undefined {
		return this.credentials.email;
	}

	private async fetch(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Answer<unknown>> {
		let res: Response;
		try {
			res = await fetch(this.url + path, {
				method,
				headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
				body: body === undefined ? undefined : JSON.stringify(body),
				redirect: "manual",
				signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS)
			});
		} catch (err) {
			const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name;
			throw new CommandFailure(
				`The platform does not answer at ${this.url} (${cause})`,
				"UNREACHABLE",
				undefined,
				"Start it (npm start), or point the command at it with --url or PUBLIC_URL."
			);
		}
		const text = await res.text();
		let parsed: unknown = text;
		try {
			parsed = text ? JSON.parse(text) : null;
		} catch {
			/* not JSON: keep the text */
		}
		return { status: res.status, body: parsed };
	}

	private async signIn(): Promise<string> {
		const { email, password } = this.credentials;
		if (!email || !password) {
			throw new UsageError("This command signs in as an administrator: pass --email and --password (or --token), or set BOOTSTRAP_ADMIN_EMAIL and BOOTSTRAP_ADMIN_PASSWORD.");
		}
		const res = await this.fetch("POST", "/auth/login", {}, { username: email, password });
		if (res.status !== 200) throw failure(res, "Signing in as the administrator failed");
		return (res.body as { accessToken: string }).accessToken;
	}

	/** An authenticated request; an answer outside 2xx throws, unless its status is in `accept`. */
	async request<T>(method: string, path: string, body?: unknown, accept: number[] = []): Promise<Answer<T>> {
		this.token ??= await this.signIn();
		const res = await this.fetch(method, path, { authorization: `Bearer ${this.token}` }, body);
		if ((res.status < 200 || res.status > 299) && !accept.includes(res.status)) throw failure(res, `${method} ${path} failed`);
		return res as Answer<T>;
	}
}

function failure(res: Answer<unknown>, what: string): CommandFailure {
	const problem = (typeof res.body === "object" && res.body !== null ? res.body : {}) as Problem;
	const code = problem.code ?? `HTTP_${res.status}`;
	const detail = problem.detail ?? problem.title ?? (typeof res.body === "string" ? res.body.slice(0, 200) : "");
	const fix =
		res.status === 401
			? "Check the administrator's email and password (or the token)."
			: res.status === 403
				? "Sign in as an administrator (a user of the group admin); `auth-notify admin create` makes one."
				: res.status === 429
					? "Each command signs in once, and sign-ins per username are limited (RATE_LIMIT_LOGIN_PER_USER): wait a minute, or sign in once and pass the access token with --token."
					: undefined;
	return new CommandFailure(`${what}: ${res.status} ${code}${detail ? `: ${detail}` : ""}`, code, res.status, fix);
}
