/**
 * client.passkeys: WebAuthn in the browser. The platform's options are JSON
 * (PublicKeyCredentialCreationOptionsJSON / RequestOptionsJSON); the browser's
 * navigator.credentials wants ArrayBuffers. Where the browser has the standard
 * PublicKeyCredential.parseCreationOptionsFromJSON, parseRequestOptionsFromJSON and
 * toJSON they are used; elsewhere the few binary fields are converted here (base64url).
 */
import type { Request } from "./request.js";
import type { EnrolmentOptions } from "./mfa.js";
import type { TokenSet } from "./types.js";

type Json = Record<string, unknown>;

export interface PasskeysApi {
	/**
	 * Registers a passkey of the signed-in user (step-up): asks for creation options,
	 * lets the browser create a discoverable credential with user verification, and
	 * sends it back. Answers the new factor's id. 401 STEP_UP_REQUIRED, 400 INVALID_WEBAUTHN_RESPONSE.
	 */
	register(name?: string, options?: EnrolmentOptions): Promise<{ factorId: string }>;
	/**
	 * Signs in with a passkey, without a password, and keeps the session (embedded
	 * provider only: 501 NOT_SUPPORTED_BY_PROVIDER with Cognito). A `username` limits the
	 * sign-in to that account. 401 INVALID_WEBAUTHN_RESPONSE.
	 */
	signIn(username?: string): Promise<TokenSet>;
}

/** The parts of the browser this module uses: injectable for other runtimes. */
export interface WebAuthnBrowser {
	credentials: { create(o: { publicKey: unknown }): Promise<unknown>; get(o: { publicKey: unknown }): Promise<unknown> };
}

interface PublicKeyCredentialStatics {
	parseCreationOptionsFromJSON?: (o: Json) => unknown;
	parseRequestOptionsFromJSON?: (o: Json) => unknown;
}

function toBytes(b64url: string): ArrayBuffer {
	const b64 = b64url.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(b64url.length / 4) * 4, "=");
	const bin = atob(b64);
	const out = new Uint8Array(bin.length);
	for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
	return out.buffer;
}

function toB64url(buf: ArrayBuffer | ArrayBufferView | null | undefined): string | undefined {
	if (!buf) return undefined;
	const bytes = buf instanceof ArrayBuffer ? new Uint8Array(buf) : new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
	let bin = "";
	for (const b of bytes) bin += String.fromCharCode(b);
	return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function statics(): PublicKeyCredentialStatics {
	// Outside a browser (or in one without WebAuthn Level 3's JSON helpers) there is none.
	const g = globalThis as unknown as { PublicKeyCredential?: PublicKeyCredentialStatics };
	return g.PublicKeyCredential ?? {};
}

const descriptors = (list: unknown): unknown => (Array.isArray(list) ? list.map((d: Json) => ({ ...d, id: toBytes(d.id as string) })) : list);

export function creationOptions(json: Json): unknown {
	const parse = statics().parseCreationOptionsFromJSON;
	if (parse) return parse(json);
	const user = json.user as Json;
	return { ...json, challenge: toBytes(json.challenge as string), user: { ...user, id: toBytes(user.id as string) }, excludeCredentials: descriptors(json.excludeCredentials) };
}

export function requestOptions(json: Json): unknown {
	const { challengeId: _ignored, ...options } = json;
	const parse = statics().parseRequestOptionsFromJSON;
	if (parse) return parse(options);
	return { ...options, challenge: toBytes(options.challenge as string), allowCredentials: descriptors(options.allowCredentials) };
}

interface CredentialLike {
	id: string;
	rawId: ArrayBuffer;
	type: string;
	authenticatorAttachment?: string | null;
	response: Record<string, unknown> & { getTransports?: () => string[] };
	getClientExtensionResults?: () => Json;
	toJSON?: () => Json;
}

/** PublicKeyCredential.toJSON(), or the same JSON built by hand. */
export function credentialJson(credential: unknown): Json {
	const c = credential as CredentialLike;
	if (typeof c.toJSON === "function") return c.toJSON();
	const r = c.response;
	const response: Json = {};
	for (const field of ["clientDataJSON", "attestationObject", "authenticatorData", "signature", "userHandle"]) {
		const v = toB64url(r[field] as ArrayBuffer | null | undefined);
		if (v !== undefined) response[field] = v;
	}
	if (typeof r.getTransports === "function") response.transports = r.getTransports();
	return {
		id: c.id,
		rawId: toB64url(c.rawId),
		type: c.type,
		response,
		clientExtensionResults: c.getClientExtensionResults?.() ?? {},
		...(c.authenticatorAttachment ? { authenticatorAttachment: c.authenticatorAttachment } : {})
	};
}

function browserOf(injected?: WebAuthnBrowser): WebAuthnBrowser {
	const b = injected ?? (globalThis as unknown as { navigator?: WebAuthnBrowser }).navigator;
	if (!b?.credentials) throw new Error("Passkeys need a browser with WebAuthn (navigator.credentials).");
	return b;
}

/** The assertion for request options the platform gave, as JSON. */
export async function assertion(options: Json, injected?: WebAuthnBrowser): Promise<Json> {
	const credential = await browserOf(injected).credentials.get({ publicKey: requestOptions(options) });
	if (!credential) throw new Error("No passkey was chosen.");
	return credentialJson(credential);
}

export function passkeysApi(request: Request, keep: (tokens: TokenSet) => Promise<TokenSet>, injected?: WebAuthnBrowser): PasskeysApi {
	const as = (options?: EnrolmentOptions) => (options?.mfaToken ? { auth: false, headers: { authorization: `Bearer ${options.mfaToken}` } } : {});
	return {
		async register(name, options) {
			const creation = (await request("post", "/auth/passkeys/registration/options", { ...as(options) })) as Json;
			const credential = await browserOf(injected).credentials.create({ publicKey: creationOptions(creation) });
			if (!credential) throw new Error("No passkey was created.");
			const body = { response: credentialJson(credential), ...(name === undefined ? {} : { name }) };
			return request("post", "/auth/passkeys/registration", { body, ...as(options) });
		},
		async signIn(username) {
			const options = (await request("post", "/auth/passkeys/authentication/options", { body: username === undefined ? {} : { username }, auth: false })) as Json & { challengeId: string };
			const response = await assertion(options, injected);
			return keep(await request("post", "/auth/passkeys/authentication", { body: { challengeId: options.challengeId, response }, auth: false }));
		}
	};
}
