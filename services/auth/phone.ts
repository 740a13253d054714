/**
 * The signed-in user's phone number (PUT /auth/phone, POST /auth/phone/verify): a code
 * by SMS (a CRITICAL notification, lib/accounts/otp.ts purpose `phone`) proves the
 * number, which only then becomes the account's `phone_number` with
 * `phone_number_verified` (audited `auth.phone_verified`). A verified phone is a
 * second factor (`sms`), a channel for one-time codes and the fallback of mailed ones.
 */
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { ClientError } from "../../lib/errors";
import type { OriginMeta } from "../../lib/http/meta";
import { ref } from "../../lib/openapi/schemas";
import type { RuntimeMethods } from "../../mixins/runtime.mixin";
import { principalOf } from "../../middlewares/auth.middleware";
import { e164OrBadRequest } from "./otp";

export interface SetPhoneParams {
	phone: string;
}

export interface VerifyPhoneParams {
	code: string;
}

interface PhoneMethods extends RuntimeMethods {
	phoneOwner(ctx: Context): { sub: string; username: string; sid?: string };
}

export const PhoneMixin: ServiceSchema<ServiceSettingSchema, PhoneMethods> = {
	name: "phone",
	actions: {
		setPhone: {
			visibility: "published",
			auth: ["user"],
			stepUp: true,
			openapi: {
				summary: "Set the signed-in user's phone number (a code by SMS confirms it)",
				description:
					"Step-up. The number (E.164, checked against libphonenumber's metadata) becomes the account's only once POST /auth/phone/verify returns its code; a new request replaces a pending one. The code goes out as a CRITICAL SMS notification and lives 10 minutes, 5 tries.",
				success: { status: 202, description: "The code is on its way." },
				problems: ["VALIDATION_ERROR", "STEP_UP_REQUIRED"],
				example: { phone: "+14155550100" }
			},
			params: { phone: { type: "string", min: 1, max: 32 }, $$strict: true },
			async handler(ctx: Context<SetPhoneParams, OriginMeta>): Promise<null> {
				const phone = e164OrBadRequest(ctx.params.phone);
				await this.runtime().otp().startPhone(this.phoneOwner(ctx), phone);
				ctx.meta.$statusCode = 202;
				return null;
			}
		},
		verifyPhone: {
			visibility: "published",
			auth: ["user"],
			openapi: {
				summary: "Confirm the phone number with the code it received",
				description: "The pending number becomes the account's `phone_number`, verified; audited as `auth.phone_verified`. Five wrong codes end the pending number.",
				success: { status: 200, description: "The phone number is verified.", schema: ref("PhoneVerified") },
				problems: ["INVALID_OTP"],
				example: { code: "123456" }
			},
			params: { code: { type: "string", min: 1, max: 64 }, $$strict: true },
			handler(ctx: Context<VerifyPhoneParams, OriginMeta>): Promise<{ phoneVerified: true }> {
				const owner = this.phoneOwner(ctx);
				return this.runtime().otp().verifyPhone(owner, ctx.params.code, { ip: ctx.meta.clientIp, userAgent: ctx.meta.userAgent, sessionId: owner.sid });
			}
		}
	},
	methods: {
		phoneOwner(ctx: Context) {
			const p = principalOf(ctx);
			if (!p || p.kind !== "user") throw new ClientError(403, "FORBIDDEN", "Only users have a phone number here.");
			return { sub: p.sub, username: p.username, sid: p.sid };
		}
	}
};
