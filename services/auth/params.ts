/** What the auth service's own actions (register, login, refresh) take and answer. */
import type { TokenSet } from "../../lib/idp/types";

export interface RegisterParams {
	email: string;
	password: string;
	firstName: string;
	lastName: string;
}

export interface LoginParams {
	username: string;
	password: string;
}

export interface RefreshParams {
	refreshToken: string;
}

export type RegisterResult = TokenSet & { actorId: string };
