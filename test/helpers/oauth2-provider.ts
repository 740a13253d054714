/**
 * A real OAuth 2.0 / OpenID Connect server for the social sign-in suites:
 * oauth2-mock-server on a random loopback port. It serves discovery, JWKS,
 * /authorize, /token and /userinfo; the test chooses the user it signs in and the
 * failures of the next call, and reads the token requests it received.
 */
import { randomUUID } from "node:crypto";
import {
	OAuth2Server,
	type MutableRedirectUri,
	type MutableResponse,
	type MutableToken,
	type TokenRequestIncomingMessage
} from "oauth2-mock-server";

export interface ProviderUser {
	sub: string;
	email?: string;
	email_verified?: boolean | string;
	given_name?: string;
	family_name?: string;
	name?: string;
}

export interface RecordedTokenRequest {
	authorization?: string;
	body: Record<string, unknown>;
}

export function providerUser(overrides: Partial<ProviderUser> = {}): ProviderUser {
	const id = randomUUID();
	return {
		sub: `provider-${id}`,
		email: `social-${id}@example.com`,
		email_verified: true,
		given_name: "Grace",
		family_name: "Hopper",
		...overrides
	};
}

export class MockProvider {
	private readonly server = new OAuth2Server();
	/** Who the provider signs in; the ID token, access token and userinfo all say so. */
	user: ProviderUser = providerUser();
	readonly tokenRequests: RecordedTokenRequest[] = [];
	/** Refresh tokens the token endpoint handed out, in order. */
	readonly refreshTokens: string[] = [];
	/** Every access, ID and refresh token the token endpoint handed out. */
	readonly issuedTokens: string[] = [];

	get issuer(): string {
		return this.server.issuer.url!;
	}

	async start(): Promise<void> {
		await this.server.issuer.keys.generate("RS256");
		await this.server.start(0, "127.0.0.1");
		// The server names itself "localhost"; the platform reaches it at the address it listens on.
		this.server.issuer.url = `http://127.0.0.1:${this.server.address().port}`;
		const service = this.server.service;
		service.on("beforeTokenSigning", (token: MutableToken) => {
			token.payload.sub = this.user.sub;
		});
		service.on("beforeResponse", (res: MutableResponse, req: TokenRequestIncomingMessage) => {
			this.tokenRequests.push({ authorization: req.headers.authorization, body: { ...req.body } });
			if (res.body && typeof res.body.refresh_token === "string") this.refreshTokens.push(res.body.refresh_token);
			const body = res.body;
			if (body) for (const token of [body.access_token, body.id_token, body.refresh_token]) if (typeof token === "string") this.issuedTokens.push(token);
		});
		service.on("beforeUserinfo", (res: MutableResponse) => {
			res.body = Object.fromEntries(Object.entries(this.user).filter(([, v]) => v !== undefined));
		});
	}

	/** The next token response becomes this error. */
	failNextTokenRequest(statusCode: number, body: Record<string, unknown>): void {
		this.server.service.once("beforeResponse", (res: MutableResponse) => {
			res.statusCode = statusCode;
			res.body = body;
		});
	}

	/** The next userinfo response becomes this one. */
	failNextUserinfo(statusCode: number, body: Record<string, unknown>): void {
		this.server.service.once("beforeUserinfo", (res: MutableResponse) => {
			res.statusCode = statusCode;
			res.body = body;
		});
	}

	/** Changes the claims of the next ID token (the token with an audience) before it is signed. */
	tamperNextIdToken(change: (payload: Record<string, unknown>) => void): void {
		const listener = (token: MutableToken) => {
			if (!("aud" in token.payload)) return;
			this.server.service.off("beforeTokenSigning", listener);
			change(token.payload);
		};
		this.server.service.on("beforeTokenSigning", listener);
	}

	/** The next /authorize redirect carries this error instead of a code. */
	denyNextAuthorization(error: string, description: string): void {
		this.server.service.once("beforeAuthorizeRedirect", ({ url }: MutableRedirectUri) => {
			url.searchParams.delete("code");
			url.searchParams.set("error", error);
			url.searchParams.set("error_description", description);
		});
	}

	async stop(): Promise<void> {
		if (this.server.listening) await this.server.stop();
	}
}
