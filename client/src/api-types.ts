/**
 * Generated from GET /openapi.json by client/scripts/generate-types.mjs: do not edit.
 * `npm run client:types` rewrites it; test/unit/client-sdk.test.ts fails when it is stale.
 */

export interface paths {
    "/.well-known/jwks.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The public keys that verify access tokens */
        get: operations["auth.jwks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/actor": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Find an actor by id */
        get: operations["actors.find"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/actors/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read an actor */
        get: operations["actors.get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change an actor's profile
         * @description The actor itself, an administrator or a service. `locale` (BCP 47, null removes it) picks the translation of templates that have one.
         */
        patch: operations["actors.update"];
        trace?: never;
    };
    "/actors/{id}/inbox": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an actor's in-app messages, newest first
         * @description `state`: unread (neither read nor archived), read (read, not archived), archived, or all (every message, archived ones too; the default).
         */
        get: operations["notifications.listInbox"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/actors/{id}/inbox/{notificationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Mark an in-app message seen, read or archived (or not)
         * @description Each flag given sets (true) or clears (false) its time; reading marks the message seen too. Archived messages leave the unread and unseen counts.
         */
        patch: operations["notifications.markInbox"];
        trace?: never;
    };
    "/actors/{id}/inbox/count": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Count an actor's unread and unseen in-app messages */
        get: operations["notifications.inboxCount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/actors/{id}/inbox/read-all": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mark every unread in-app message of an actor read
         * @description Archived messages stay as they are.
         */
        post: operations["notifications.readAllInbox"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/actors/{id}/inbox/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A live stream of an actor's inbox
         * @description With `Accept: text/event-stream`, server-sent events: `message` (a new message, `id:` its place, data the message) and `count` (data `{ unread, unseen }`, sent at the start and whenever they change), from whichever node stored or changed them; a comment line every 15 s. `Last-Event-ID` resumes after a message: those stored since are sent first. Otherwise what the stream would begin with, as JSON. Open streams are bounded per caller and per node (429).
         */
        get: operations["notifications.inboxStream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/actors/{id}/preferences": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An actor's notification preferences */
        get: operations["preferences.getPreferences"];
        /**
         * Replace an actor's notification preferences
         * @description EMAIL items need the actor's address verified (until then it may be someone else's): 403 EMAIL_NOT_VERIFIED. A set without EMAIL items leaves the address's records alone. `timeZone` (IANA) and `quietHours` (local HH:MM, may wrap midnight) are set when given, removed when null, left when absent; without `items` the items are left too.
         */
        put: operations["preferences.putPreferences"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/actors/{id}/push-subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List an actor's Web Push subscriptions */
        get: operations["notifications.listPushSubscriptions"];
        put?: never;
        /**
         * Add a Web Push subscription to an actor
         * @description The body is the browser's PushSubscription JSON; the endpoint must be https: on a host that resolves to public addresses only.
         */
        post: operations["notifications.addPushSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/actors/{id}/push-subscriptions/{subscriptionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete one of an actor's Web Push subscriptions */
        delete: operations["notifications.deletePushSubscription"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search the audit log
         * @description Filters combine: `actorId`, `type`, `from` (inclusive) and `to` (exclusive) ISO 8601 instants. Newest first, 50 a page. With `Accept: application/x-ndjson`, every match streams as one JSON object a line (no cursor).
         */
        get: operations["auth.adminAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/features": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List feature flags (administrators) */
        get: operations["features.list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/features/{featureName}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a feature flag (administrators) */
        get: operations["features.get"];
        /** Set a feature flag (administrators) */
        put: operations["features.set"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/keys/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the signing key
         * @description The new key signs from now on; older public keys stay in the JWKS until every token they signed has expired.
         */
        post: operations["auth.rotateKeys"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/outbox": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List what the file providers wrote, newest first
         * @description The dev inbox: every email, SMS and push message the `file` providers wrote under `DATA_DIR/outbox` on the dispatcher node that answers, and the newest in-app messages (from the store, any node). Email, SMS and push are empty with real providers.
         */
        get: operations["dispatcher.listOutbox"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/outbox/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One message the file providers wrote
         * @description An email with its headers and its text and HTML decoded (quoted-printable and base64 undone), an SMS's text, a push message's payload, or an in-app message with its recipient's state.
         */
        get: operations["dispatcher.getOutbox"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Email and SMS providers' health across dispatcher nodes (administrators) */
        get: operations["stats.providers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/service-accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the service accounts */
        get: operations["auth.listServiceAccounts"];
        put?: never;
        /** Create a service account */
        post: operations["auth.createServiceAccount"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/service-accounts/{serviceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a service account
         * @description Its tokens stop working at their expiry.
         */
        delete: operations["auth.deleteServiceAccount"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Queue, throughput and rates for the console (administrators) */
        get: operations["stats.overview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/suppressions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List suppressed addresses */
        get: operations["preferences.listSuppressions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/suppressions/{channel}/{address}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove an address from a channel's suppression list */
        delete: operations["preferences.removeSuppression"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/unsubscribes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List unsubscribes */
        get: operations["preferences.listUnsubscribes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/unsubscribes/{channel}/{address}/{category}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove an unsubscribe: the address receives that category again */
        delete: operations["preferences.removeUnsubscribe"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Find user accounts
         * @description `query` is the start of an email address (any case) or an exact actor id; without it, every account. In email order, 50 a page.
         */
        get: operations["auth.listUsers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/users/{actorId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a user account
         * @description The account view plus its open sessions, its active second factors (without secrets), recovery codes left and verified phone.
         */
        get: operations["auth.getUser"];
        put?: never;
        post?: never;
        /**
         * Delete a user account
         * @description As DELETE /auth/account, by an administrator. Deleting again answers 410 ACCOUNT_DELETED.
         */
        delete: operations["auth.adminDeleteUser"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/users/{actorId}/lock": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Lock a user account
         * @description Every session ends; password sign-in answers 401 INVALID_CREDENTIALS (as a wrong password does) and refresh 401 INVALID_REFRESH_TOKEN until the account is unlocked. Locking a locked account changes nothing.
         */
        post: operations["auth.lockUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/users/{actorId}/mfa": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove every second factor of a user (administrators)
         * @description The user signs in with the password alone until enrolling again (unless MFA_ENFORCE asks for a factor). Audited.
         */
        delete: operations["auth.adminRemoveMfa"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/users/{actorId}/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * End every session of a user account
         * @description Every refresh token stops at once, every access token within a second on every node. Audited as auth.session_revoked.
         */
        delete: operations["auth.adminEndSessions"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/users/{actorId}/unlock": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Unlock a user account
         * @description Password sign-in works again. Unlocking an account that is not locked changes nothing.
         */
        post: operations["auth.unlockUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List every webhook endpoint with its owner and recent attempts (administrators) */
        get: operations["outbound.listAllEndpoints"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete the signed-in user's account
         * @description Step-up. Sessions end, queued notifications are cancelled, preferences, push subscriptions, inbox, documents and factors are removed, the identity-provider user is deleted, and a tombstone `{ actorId, deletedAt }` is kept. Crash-safe: a deletion a node could not finish is finished by another. Deleting again answers 410 ACCOUNT_DELETED.
         */
        delete: operations["auth.deleteAccount"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/account/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export everything the platform holds about the signed-in user
         * @description Step-up. Profile, sessions, second factors (no secrets), audit timeline, notifications addressed to the user (without their variables), inbox, preferences, push subscriptions (no keys) and documents' metadata. Never cached.
         */
        get: operations["auth.exportAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The signed-in user's security events
         * @description Newest first, 50 a page. An event that raised a security alert names the alert's `notificationId` and its current `deliveryStatus` (SENT, DELIVERED, BOUNCED…).
         */
        get: operations["auth.auditList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/email/change": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change the signed-in user's email address
         * @description Step-up. A link is mailed to the new address; the address changes only when it is used (POST /auth/email/verify, the verification page), and until then the old address still signs in. Using it ends every session (sign in with the new address) and records auth.email_changed, which alerts the old address.
         */
        post: operations["auth.changeEmail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/email/verification": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send the signed-in user a verification mail
         * @description Also sent on registration. The link carries the token in its fragment.
         */
        post: operations["auth.requestVerification"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/email/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Verify an email address with the token from the mail
         * @description Also takes the token mailed by POST /auth/email/change: the account's address then changes to the new one, verified, and every session ends.
         */
        post: operations["auth.verifyEmail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in with a password
         * @description A user with a second factor gets 403 MFA_REQUIRED with an `mfaToken` (single use, 5 minutes) and the `factors` to answer with at POST /auth/mfa/verify; one who must enrol one (MFA_ENFORCE) gets 403 MFA_ENROLLMENT_REQUIRED with an `mfaToken` for the enrolment routes.
         */
        post: operations["auth.login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign out: revoke a refresh token's family
         * @description Also 204 for an unknown or already revoked token.
         */
        post: operations["auth.logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/logout/all": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign out everywhere: revoke every refresh token of the signed-in user */
        post: operations["auth.logoutAll"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The signed-in user's account
         * @description `emailDeliverable` is false after a permanent bounce or a complaint on the address; `factors` are the active second factors, without secrets.
         */
        get: operations["auth.me"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/mfa/challenge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask for a challenge of a second factor (WebAuthn options, SMS code)
         * @description `webauthn`: request options for navigator.credentials.get() naming the user's passkeys; the challenge is single use, lives 5 minutes and belongs to this mfaToken (a new request replaces it). An account without a factor of the type gets 400. `sms`: 202, a code (6 digits, 10 minutes) goes to the account's verified phone as a CRITICAL SMS notification (a new request replaces it; when it fails or is not SENT within OTP_FALLBACK_AFTER_SECONDS it also goes to the verified email).
         */
        post: operations["auth.mfaChallenge"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/mfa/factors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the signed-in user's second factors */
        get: operations["auth.mfaFactors"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/mfa/factors/{factorId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove one of the signed-in user's factors
         * @description Step-up. With the last factor, the recovery codes go too.
         */
        delete: operations["auth.removeFactor"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/mfa/recovery-codes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace the signed-in user's recovery codes
         * @description Step-up. Ten new codes, shown only here; the old ones stop working.
         */
        post: operations["auth.regenerateRecoveryCodes"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/mfa/totp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start enrolling an authenticator app (TOTP)
         * @description Step-up. The factor stays pending until POST /auth/mfa/totp/{factorId}/confirm; a new enrolment replaces a pending one. Also takes the enrolment mfaToken of a 403 MFA_ENROLLMENT_REQUIRED as its Bearer token.
         */
        post: operations["auth.enrolTotp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/mfa/totp/{factorId}/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Confirm an authenticator app with its first code
         * @description The first factor comes with 10 recovery codes, shown only here. With an enrolment mfaToken, the mfaToken is spent: sign in again.
         */
        post: operations["auth.confirmTotp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/mfa/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Finish a sign-in with a second factor
         * @description With the mfaToken of a 403 MFA_REQUIRED answer: a `code` (totp, recovery), or a passkey's assertion JSON as `response` (webauthn, after POST /auth/mfa/challenge; amr then names `hwk` or `swk`). Five wrong codes or assertions end the mfaToken; each code, and each challenge, is accepted once. `sms`: the code of POST /auth/mfa/challenge type sms, for a user with a verified phone (amr then names `sms`).
         */
        post: operations["auth.mfaVerify"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/otp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a one-time sign-in code (and magic link)
         * @description Embedded provider only (501 NOT_SUPPORTED_BY_PROVIDER with Cognito). The same 202 for an unknown address, which nothing is sent to. The code (6 digits, 10 minutes) goes out as a CRITICAL notification; its mail also carries a magic link `UI_BASE_URL` + `UI_MAGIC_LINK_PATH` `#token=…`.
         */
        post: operations["auth.otpStart"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/otp/{challengeId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Follow a one-time code's delivery */
        get: operations["auth.otpStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/otp/{challengeId}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a new one-time code
         * @description The new code replaces the old one; at most 3 resends in 10 minutes (429 with Retry-After).
         */
        post: operations["auth.otpResend"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/otp/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in with a one-time code or a magic link's token
         * @description Five wrong codes end the challenge; a code or token works once. The tokens' amr is `["otp", "email"]`.
         */
        post: operations["auth.otpVerify"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/passkeys/authentication": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in with a passkey
         * @description With the `challengeId` of the options and the assertion's JSON. The passkey's user verification counts as two factors: the tokens' amr is `hwk` (a device-bound passkey) or `swk` (a synced one) with `mfa`. The challenge is spent either way; the signature counter must grow. Embedded identity provider only.
         */
        post: operations["auth.passkeySignIn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/passkeys/authentication/options": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a passwordless sign-in with a passkey
         * @description Request options for navigator.credentials.get() and the `challengeId` to answer with. A `username` binds the challenge to that account (whether it exists or has passkeys is not told). Embedded identity provider only: with Cognito, 501 NOT_SUPPORTED_BY_PROVIDER.
         */
        post: operations["auth.passkeySignInOptions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/passkeys/registration": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Finish registering a passkey
         * @description With the JSON of the credential navigator.credentials.create() made (PublicKeyCredential.toJSON()). The attestation must answer the pending challenge, from one of WEBAUTHN_ORIGINS, for WEBAUTHN_RP_ID, with user verification; the challenge is spent either way.
         */
        post: operations["auth.registerPasskey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/passkeys/registration/options": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start registering a passkey
         * @description Step-up. Creation options for navigator.credentials.create(): a discoverable credential with user verification, none of the user's passkeys again. The challenge is single use and lives 5 minutes; a new request replaces it. Also takes the enrolment mfaToken of a 403 MFA_ENROLLMENT_REQUIRED as its Bearer token.
         */
        post: operations["auth.passkeyRegistrationOptions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/password/change": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change the signed-in user's password
         * @description Step-up: the sign-in must be at most STEP_UP_MAX_AGE_SECONDS old. Every other refresh token of the user is revoked.
         */
        post: operations["auth.changePassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/password/forgot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask for a password reset mail
         * @description The same answer, in the same time, whether or not the account exists.
         */
        post: operations["auth.forgotPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/password/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set a new password with the token from the reset mail
         * @description Every refresh token of the user is revoked.
         */
        post: operations["auth.resetPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/phone": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set the signed-in user's phone number (a code by SMS confirms it)
         * @description Step-up. The number (E.164, checked against libphonenumber's metadata) becomes the account's only once POST /auth/phone/verify returns its code; a new request replaces a pending one. The code goes out as a CRITICAL SMS notification and lives 10 minutes, 5 tries.
         */
        put: operations["auth.setPhone"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/phone/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Confirm the phone number with the code it received
         * @description The pending number becomes the account's `phone_number`, verified; audited as `auth.phone_verified`. Five wrong codes end the pending number.
         */
        post: operations["auth.verifyPhone"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/refresh-user-token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exchange a refresh token for new tokens
         * @description The refresh token rotates: keep only the one answered. Presenting an old one twice outside the reuse grace signs the session out.
         */
        post: operations["auth.refresh.2"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create an account and sign in */
        post: operations["auth.register"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/security/not-me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * "This was not me": secure the account from a security alert's link
         * @description The token is the one in the alert's link fragment (valid 7 days, single use). Every session of the account ends, and password sign-in is refused until the password is reset (POST /auth/password/forgot).
         */
        post: operations["auth.notMe"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/services/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in as a service account
         * @description The answer's idToken is the service token (it carries custom:service_id).
         */
        post: operations["auth.serviceToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the signed-in user's sessions
         * @description Every open session (refresh-token family), newest first; `current` marks the one of the token that asked.
         */
        get: operations["auth.listSessions"];
        put?: never;
        post?: never;
        /**
         * End every session of the signed-in user but this one
         * @description Sign out the other devices: each other open session ends as DELETE /auth/sessions/{sessionId} ends one (its refresh token at once, its access tokens within a second on every node); the session of the token that asks keeps working. Audited as auth.session_revoked with scope `others`.
         */
        delete: operations["auth.revokeOtherSessions"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/sessions/{sessionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * End one of the signed-in user's sessions
         * @description Its refresh token stops working at once and its access tokens within a second on every node (answered 401 like an invalid token). 404 for an id that is not an open session of the caller's, another user's included. Audited as auth.session_revoked.
         */
        delete: operations["auth.revokeSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/social/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Start social sign-in
         * @description A browser navigation: redirects to the identity provider and sets the binding cookie the callback checks.
         */
        get: operations["auth.socialLogin"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/social/login/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Finish social sign-in (the provider's redirect)
         * @description Always redirects to the UI: with a one-time `token` to exchange at POST /auth/tokens/exchange, or with only an `error` code.
         */
        get: operations["auth.socialCallback"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/tokens/exchange": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Exchange the social sign-in token for tokens */
        post: operations["auth.exchange"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/tokens/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exchange a refresh token for new tokens
         * @description The refresh token rotates: keep only the one answered. Presenting an old one twice outside the reuse grace signs the session out.
         */
        post: operations["auth.refresh"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The administrators' console
         * @description A page that signs in with /auth/login and reads the admin routes; only administrators see more than a refusal.
         */
        get: operations["api.console"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A file of the console */
        get: operations["api.consoleAsset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The API reference page */
        get: operations["api.docs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A file of the reference page */
        get: operations["api.docsAsset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health/live": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness */
        get: operations["api.live"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness */
        get: operations["api.ready"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/idp/{pool}/.well-known/jwks.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Public signing keys of an embedded issuer */
        get: operations["auth.issuerJwks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/idp/{pool}/.well-known/openid-configuration": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** OpenID discovery document of an embedded issuer */
        get: operations["auth.openidConfiguration"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/notifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List notifications, newest first
         * @description Services and administrators see every notification; users see their own.
         */
        get: operations["notifications.list"];
        put?: never;
        /**
         * Send a notification
         * @description Accepted and queued; GET its Location for the status. An Idempotency-Key header makes retries safe.
         */
        post: operations["notifications.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/notifications/{notificationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a notification and its events */
        get: operations["notifications.get"];
        put?: never;
        post?: never;
        /** Cancel a queued notification */
        delete: operations["notifications.cancel"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/notifications/{notificationId}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A notification's status timeline, or a live stream of it
         * @description With `Accept: text/event-stream`, server-sent events (one per timeline event, `id:` its sequence, a comment line every 15 s) that follow new events; `Last-Event-ID` resumes after an event. Otherwise the timeline as JSON. Open streams are bounded per caller and per node (429).
         */
        get: operations["notifications.events"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/notifications/push/vapid-public-key": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The VAPID public key for Web Push subscriptions */
        get: operations["notifications.vapidPublicKey"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/notifications/webhooks/email-provider": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Amazon SNS delivery events for email
         * @description Authenticated by the SNS message signature alone (see the SnsMessage schema), not by a token.
         */
        post: operations["webhooks.emailProvider"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/notifications/webhooks/sms-provider": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Amazon SNS delivery events for SMS (AWS End User Messaging)
         * @description Authenticated by the SNS message signature alone (see the SnsMessage schema), not by a token.
         */
        post: operations["webhooks.smsProvider"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This OpenAPI 3.1 document */
        get: operations["api.openapi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/resumes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload a resume
         * @description multipart/form-data with one file part named `resume` (PDF, DOC, DOCX, RTF or UTF-8 text, at most 10 MiB) and `candidateId`.
         */
        post: operations["documents.upload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/resumes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a resume's metadata */
        get: operations["documents.get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/resumes/{id}/content": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Download a resume */
        get: operations["documents.content"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List templates, most recently changed first
         * @description Services and administrators see every template; users see their own. At most 500.
         */
        get: operations["notifications.listTemplates"];
        put?: never;
        /**
         * Create a template
         * @description Liquid: `{{ name }}`, `{% if %}`, `{% for %}`, filters (`date` takes a time zone). HTML parts escape every output. EMAIL and PUSH need a subject (PUSH shows it as the title); a template with only a text part serves SMS and IN_APP. `locales` holds translations keyed by BCP 47 tag; a notification's locale (else its recipient actor's) picks one: de-AT, then de, then the default parts. Version 1.
         */
        post: operations["notifications.createTemplate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/templates/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a template */
        get: operations["notifications.getTemplate"];
        /**
         * Replace a template
         * @description Every replacement is a new version (n+1); queued notifications keep the version they were accepted with.
         */
        put: operations["notifications.updateTemplate"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/templates/{id}/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Render a template without sending
         * @description What a notification on `channel` (EMAIL by default) would carry, in `locale` (its chain: de-AT, de, the default). SMS shows the text alone, PUSH the title and text.
         */
        post: operations["notifications.previewTemplate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/templates/{id}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A template's versions, newest first */
        get: operations["notifications.templateVersions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/templates/{id}/versions/{version}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Restore a version of a template
         * @description The version's content becomes a new version (n+1); the versions in between stay.
         */
        post: operations["notifications.restoreTemplateVersion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ui/{page}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The platform's own account pages
         * @description When `UI_BASE_URL` is unset, the verification, reset and one-time code mails link here (`/ui` + `UI_VERIFY_EMAIL_PATH`, `UI_RESET_PASSWORD_PATH`, `UI_MAGIC_LINK_PATH`, or a security alert's `UI_NOT_ME_PATH`, the token in the fragment); the page posts the token to the API. Also `ui.js`, their script, and the social callback page when `UI_CALLBACK_PATH` is one segment.
         */
        get: operations["api.uiPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ui/auth/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The platform's own end of a social sign-in
         * @description When `UI_BASE_URL` is unset, social sign-in ends here (`/ui` + `UI_CALLBACK_PATH`, whose default is `/auth/callback`) with the temporary token (or an `error` code) in the query; the page exchanges the token (POST /auth/tokens/exchange) and says who signed in.
         */
        get: operations["api.uiCallback"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/unsubscribe/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The unsubscribe page of a mail's List-Unsubscribe link
         * @description An HTML page with a confirm button; a GET never unsubscribes (mail scanners follow links).
         */
        get: operations["preferences.unsubscribePage"];
        put?: never;
        /**
         * RFC 8058 one-click unsubscribe
         * @description No Bearer token: the signed token in the path names the channel, address and category. With `Accept: text/html` the answer is a page.
         */
        post: operations["preferences.unsubscribe"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the caller's webhook endpoints */
        get: operations["outbound.listEndpoints"];
        put?: never;
        /**
         * Register a webhook endpoint for the caller's notifications
         * @description The url must be https: and resolve to public addresses only. Deliveries are signed per Standard Webhooks with the secret answered here. An owner has one endpoint per url, and at most WEBHOOK_MAX_ENDPOINTS_PER_OWNER (10 by default).
         */
        post: operations["outbound.createEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints/{endpointId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete one of the caller's webhook endpoints */
        delete: operations["outbound.deleteEndpoint"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        AccountExport: {
            /** @description The audit timeline, newest first. */
            audit: {
                items: {
                    detail?: {
                        [key: string]: string;
                    };
                    eventId?: string;
                    ip?: string | null;
                    /** Format: date-time */
                    occurredAt?: string;
                    sessionId?: string | null;
                    type?: string;
                    userAgent?: string | null;
                }[];
                truncated: boolean;
            };
            documents: {
                contentType?: string;
                /** Format: date-time */
                createdAt?: string;
                documentId?: string;
                filename?: string;
                size?: number;
            }[];
            /** Format: date-time */
            exportedAt: string;
            /** @description Second factors: never a seed, key or code. */
            factors: {
                /** Format: date-time */
                confirmedAt?: string;
                /** Format: date-time */
                createdAt?: string;
                factorId?: string;
                name?: string;
                status?: string;
                type?: string;
            }[];
            /** @description The in-app inbox, newest first. */
            inbox: {
                items: {
                    /** Format: date-time */
                    archivedAt?: string;
                    body?: string;
                    /** Format: date-time */
                    createdAt?: string;
                    data?: {
                        [key: string]: unknown;
                    };
                    notificationId?: string;
                    /** Format: date-time */
                    readAt?: string;
                    /** Format: date-time */
                    seenAt?: string;
                    state?: string;
                    title?: string;
                }[];
                truncated: boolean;
            };
            /** @description Notifications to the user's addresses (the email, and the actor id for PUSH and IN_APP), without their variables, newest first. */
            notifications: {
                items: {
                    category?: string;
                    channel?: string;
                    /** Format: date-time */
                    createdAt?: string;
                    notificationId?: string;
                    priority?: string;
                    /** Format: date-time */
                    sendAt?: string;
                    status?: string;
                    to?: string;
                    /** Format: date-time */
                    updatedAt?: string;
                }[];
                truncated: boolean;
            };
            preferences: {
                items?: {
                    category?: string;
                    /** @enum {unknown} */
                    channel?: "EMAIL" | "SMS" | "PUSH" | "IN_APP";
                    enabled?: boolean;
                }[];
                quietHours?: {
                    end?: string;
                    start?: string;
                };
                timeZone?: string;
            };
            profile: {
                /** Format: uuid */
                actorId: string;
                /** Format: date-time */
                createdAt: string;
                email: string;
                emailDeliverable: boolean;
                emailVerified: boolean;
                firstName: string;
                lastName: string;
                locale?: string;
                /** Format: date-time */
                updatedAt?: string;
            };
            /** @description Endpoints, no keys. */
            pushSubscriptions: {
                /** Format: date-time */
                createdAt?: string;
                endpoint?: string;
                subscriptionId?: string;
            }[];
            /** @description Live sessions, with the device (`userAgent`) and address (`ip`) GET /auth/sessions shows for each. */
            sessions: {
                amr?: string[];
                /** Format: date-time */
                createdAt?: string;
                /** Format: date-time */
                expiresAt?: string;
                ip?: string | null;
                /** Format: date-time */
                lastUsedAt?: string;
                sessionId?: string;
                userAgent?: string | null;
            }[];
        };
        Actor: {
            actorId: string;
            /** Format: date-time */
            createdAt: string;
            email: string;
            /** @description Present once a bounce or complaint was reported: false while mail to the address bounces, true again after a delivery or verification. */
            emailDeliverable?: boolean;
            firstName: string;
            lastName: string;
            /** @description BCP 47: the language notifications to this actor are rendered in. */
            locale?: string;
            /** Format: date-time */
            updatedAt: string;
        };
        AdminUser: {
            /** Format: uuid */
            actorId: string;
            /** Format: date-time */
            createdAt: string;
            email: string;
            /** @description In the answer of GET /admin/users/{actorId}: false after a permanent bounce or a complaint on the address, true again after a delivery or a new verification. */
            emailDeliverable?: boolean;
            /** @description In the answer of GET /admin/users/{actorId}. */
            emailVerified?: boolean;
            /** @description In the answer of GET /admin/users/{actorId}: the active second factors, without secrets. */
            factors?: components["schemas"]["MfaFactor"][];
            firstName: string;
            lastName: string;
            /** @description Password sign-in and refresh are refused until an administrator unlocks the account. */
            locked: boolean;
            /** Format: date-time */
            lockedAt?: string;
            /** @description GET /admin/users/{actorId}: the verified phone number (E.164), when the user has one. */
            phone?: string;
            /** @description In the answer of GET /admin/users/{actorId}. */
            phoneVerified?: boolean;
            /** @description In the answer of GET /admin/users/{actorId}: recovery codes not used yet (DELETE /admin/users/{actorId}/mfa resets them with the factors). */
            recoveryCodesLeft?: number;
            /** @description In the answer of GET /admin/users/{actorId}: the open sessions (`current` is always false here). */
            sessions?: components["schemas"]["Session"][];
        };
        AdminUserList: {
            items: components["schemas"]["AdminUser"][];
            /** @description Absent on the last page. */
            nextCursor?: string;
        };
        AdminWebhookEndpointList: {
            items: (components["schemas"]["WebhookEndpoint"] & {
                owner: {
                    id: string;
                    /** @enum {unknown} */
                    kind: "user" | "service";
                };
                recentAttempts: {
                    /** Format: date-time */
                    at: string;
                    error?: string;
                    /** @enum {unknown} */
                    outcome: "succeeded" | "failed";
                    responseCode?: number;
                    type: string;
                    webhookId: string;
                }[];
            })[];
        };
        AuditEvent: {
            /**
             * Format: uuid
             * @description GET /admin/audit only.
             */
            actorId?: string;
            /**
             * @description The alert's current delivery status, read from its notification.
             * @enum {unknown}
             */
            deliveryStatus?: "QUEUED" | "PROCESSING" | "SENT" | "DELIVERED" | "BOUNCED" | "COMPLAINT" | "FAILED" | "SUPPRESSED" | "UNSUBSCRIBED" | "CANCELLED" | "DIGESTED" | "THROTTLED";
            /** @description GET /admin/audit only: what else the event names (how a sign-in was made, who acted). */
            detail?: {
                [key: string]: string;
            };
            /** @description A UUIDv7: later events sort after earlier ones. */
            eventId: string;
            /** @description The client's address as the gateway saw it. */
            ip: string | null;
            /**
             * Format: uuid
             * @description The security alert this event raised.
             */
            notificationId?: string;
            /** Format: date-time */
            occurredAt: string;
            /** @description The session (refresh-token family) the event belongs to. */
            sessionId?: string;
            /** @enum {unknown} */
            type: "auth.registered" | "auth.signed_in" | "auth.sign_in_failed" | "auth.signed_in_new_device" | "auth.mfa_challenge_failed" | "auth.refresh_reuse_detected" | "auth.signed_out" | "auth.session_revoked" | "auth.password_changed" | "auth.password_reset" | "auth.email_verified" | "auth.email_changed" | "auth.phone_verified" | "auth.mfa_enrolled" | "auth.mfa_removed" | "auth.recovery_code_used" | "auth.locked" | "auth.unlocked" | "auth.not_me" | "auth.account_exported" | "auth.account_deleted" | "auth.address_undeliverable";
            userAgent: string | null;
        };
        AuditPage: {
            items: components["schemas"]["AuditEvent"][];
            /** @description Absent on the last page. */
            nextCursor?: string;
        };
        EmailVerified: {
            /** @constant */
            emailVerified: true;
        };
        FeatureFlag: {
            featureName: string;
            /** Format: date-time */
            updatedAt: string;
            updatedBy: string;
            value: {
                [key: string]: unknown;
            };
        };
        HealthReport: {
            checks: {
                [key: string]: "ok" | "down" | "stopping";
            };
            /** @enum {unknown} */
            status: "ok" | "unavailable";
        };
        InboxCounts: {
            /** @description Messages neither read nor archived. */
            unread: number;
            /** @description Messages not archived and never marked seen (reading marks seen). */
            unseen: number;
        };
        InboxItem: {
            /** Format: date-time */
            archivedAt?: string;
            /** @description The template's text. */
            body: string;
            /** Format: date-time */
            createdAt: string;
            data: {
                [key: string]: unknown;
            };
            /** Format: uuid */
            notificationId: string;
            /** Format: date-time */
            readAt?: string;
            /** Format: date-time */
            seenAt?: string;
            /** @description The template's subject; empty when it has none. */
            title: string;
        };
        InboxPage: {
            items: components["schemas"]["InboxItem"][];
            /** @description Pass as `cursor` for the next (older) page; absent on the last one. */
            nextCursor?: string;
        };
        InboxSnapshot: {
            counts: components["schemas"]["InboxCounts"];
            /** @description The messages after Last-Event-ID, oldest first (none without it). */
            items: (components["schemas"]["InboxItem"] & {
                /** @description The event id. */
                seq: string;
            })[];
        };
        JWKS: {
            keys: {
                kid?: string;
                kty: string;
            }[];
        };
        Me: {
            /** Format: uuid */
            actorId: string;
            /** Format: date-time */
            createdAt: string;
            email: string;
            /** @description False after a permanent bounce or a complaint on the address, true again after a delivery or a new verification. */
            emailDeliverable: boolean;
            emailVerified: boolean;
            factors: components["schemas"]["MfaFactor"][];
            /** @description E.164, when the account has one. */
            phone?: string;
            phoneVerified: boolean;
        };
        MfaFactor: {
            /** Format: date-time */
            createdAt: string;
            /** Format: uuid */
            factorId: string;
            lastUsedAt: string | null;
            name: string;
            /** @enum {unknown} */
            type: "totp" | "webauthn";
        };
        MfaFactors: {
            items: components["schemas"]["MfaFactor"][];
            recoveryCodesLeft: number;
        };
        Notification: {
            attempts: number;
            category?: string;
            /** @enum {unknown} */
            channel: "EMAIL" | "SMS" | "PUSH" | "IN_APP";
            /** Format: date-time */
            createdAt: string;
            events: {
                detail?: {
                    [key: string]: unknown;
                };
                event: string;
                /** Format: date-time */
                occurredAt: string;
            }[];
            /** @description The locale asked for, when one was. */
            locale?: string;
            /** Format: uuid */
            notificationId: string;
            /** @enum {unknown} */
            priority: "CRITICAL" | "HIGH" | "NORMAL" | "LOW";
            providerMessageId?: string;
            /** Format: date-time */
            sendAt?: string;
            /** @enum {unknown} */
            status: "QUEUED" | "PROCESSING" | "SENT" | "DELIVERED" | "BOUNCED" | "COMPLAINT" | "FAILED" | "SUPPRESSED" | "UNSUBSCRIBED" | "CANCELLED" | "DIGESTED" | "THROTTLED";
            /** @description The subject with its variables filled in, when the notification carries its template. */
            subject?: string;
            /** Format: uuid */
            templateId?: string;
            /** @description The template version it is rendered with (a stored template's). */
            templateVersion?: number;
            to: string;
            /** Format: date-time */
            updatedAt: string;
        };
        NotificationAccepted: {
            /** Format: uuid */
            notificationId: string;
            /**
             * @description THROTTLED: over its throttle, stored and never sent.
             * @enum {unknown}
             */
            status: "QUEUED" | "THROTTLED";
        };
        NotificationPage: {
            items: {
                attempts: number;
                category: string;
                /** @enum {unknown} */
                channel: "EMAIL" | "SMS" | "PUSH" | "IN_APP";
                /** Format: date-time */
                createdAt: string;
                /** Format: uuid */
                notificationId: string;
                /** @enum {unknown} */
                priority: "CRITICAL" | "HIGH" | "NORMAL" | "LOW";
                providerMessageId?: string;
                /** Format: date-time */
                sendAt?: string;
                /** @enum {unknown} */
                status: "QUEUED" | "PROCESSING" | "SENT" | "DELIVERED" | "BOUNCED" | "COMPLAINT" | "FAILED" | "SUPPRESSED" | "UNSUBSCRIBED" | "CANCELLED" | "DIGESTED" | "THROTTLED";
                /** @description The subject with its variables filled in, when the notification carries its template. */
                subject?: string;
                /** Format: uuid */
                templateId?: string;
                to: string;
                /** Format: date-time */
                updatedAt: string;
            }[];
            /** @description Pass as `cursor` for the next page; absent on the last one. */
            nextCursor?: string;
        };
        NotMeResult: {
            /**
             * @description Password sign-in is refused until the password is reset.
             * @constant
             */
            passwordSignInBlocked: true;
            /**
             * @description Every session of the account has ended.
             * @constant
             */
            sessionsRevoked: true;
        };
        /** @description This document. */
        OpenApiDocument: {
            [key: string]: unknown;
        };
        OpenIdConfiguration: {
            claims_supported?: string[];
            id_token_signing_alg_values_supported: string[];
            /** Format: uri */
            issuer: string;
            /** Format: uri */
            jwks_uri: string;
            subject_types_supported?: string[];
        };
        OtpChallenge: {
            /** Format: uuid */
            challengeId: string;
        };
        OtpStatus: {
            /** @enum {unknown} */
            channel: "email" | "sms";
            /**
             * @description The code also went out there.
             * @enum {unknown}
             */
            fallbackChannel?: "email" | "sms";
            /** Format: date-time */
            resendAvailableAt: string;
            /**
             * @description Follows the code's notification.
             * @enum {unknown}
             */
            status: "PENDING" | "SENT" | "DELIVERED" | "FAILED" | "VERIFIED" | "EXPIRED";
        };
        OutboxMessage: components["schemas"]["OutboxSummary"] & {
            /** @description IN_APP: the recipient actor (also in `to`). */
            actorId?: string;
            /** @description IN_APP: the message's text. */
            body?: string;
            /** @description IN_APP: the notification's data. */
            data?: {
                [key: string]: unknown;
            };
            /** @description EMAIL and SMS: the sender. */
            from?: string | null;
            /** @description EMAIL: every header in order, encoded words decoded. */
            headers?: {
                name: string;
                value: string;
            }[];
            /** @description EMAIL: the HTML part, decoded. */
            html?: string;
            /** @description PUSH: the payload sent to the push service. */
            payload?: unknown;
            /**
             * @description IN_APP: where the recipient left it.
             * @enum {unknown}
             */
            state?: "unread" | "read" | "archived";
            /** @description EMAIL: the text part, decoded; SMS: the message. */
            text?: string;
            /** @description IN_APP: the message's title (also in `subject` when not empty). */
            title?: string;
        };
        OutboxPage: {
            items: components["schemas"]["OutboxSummary"][];
            /** @description Pass as `cursor` for the next page; absent on the last one. */
            nextCursor?: string;
        };
        OutboxSummary: {
            /** @description EMAIL, SMS, PUSH, IN_APP, or another channel's name. */
            channel: string;
            /** Format: date-time */
            createdAt: string;
            /** @description The channel and the file's name: `email.<notificationId>.<sendId>`; `in-app.<notificationId>` for an in-app message. */
            id: string;
            notificationId: string;
            /** @description The start of the text, on one line. */
            preview: string;
            /** @description The email's subject or the push message's title. */
            subject?: string;
            to: string;
        };
        /** @description WebAuthn PublicKeyCredentialCreationOptionsJSON: hand it to PublicKeyCredential.parseCreationOptionsFromJSON() and navigator.credentials.create(). */
        PasskeyCreationOptions: {
            attestation?: string;
            /** @description residentKey and userVerification `required`. */
            authenticatorSelection: {
                authenticatorAttachment?: string;
                requireResidentKey?: boolean;
                residentKey?: string;
                userVerification?: string;
            };
            /** @description base64url; single use, 5 minutes. */
            challenge: string;
            /** @description The user's passkeys already registered. */
            excludeCredentials?: {
                /** @description The credential id, base64url. */
                id?: string;
                transports?: string[];
                /** @enum {unknown} */
                type?: "public-key";
            }[];
            extensions?: {
                [key: string]: unknown;
            };
            hints?: string[];
            pubKeyCredParams: {
                alg?: number;
                /** @enum {unknown} */
                type?: "public-key";
            }[];
            rp: {
                id?: string;
                name?: string;
            };
            timeout?: number;
            user: {
                displayName?: string;
                id?: string;
                name?: string;
            };
        };
        PasskeyRegistered: {
            /** Format: uuid */
            factorId: string;
        };
        /** @description WebAuthn PublicKeyCredentialRequestOptionsJSON: hand it to PublicKeyCredential.parseRequestOptionsFromJSON() and navigator.credentials.get(). */
        PasskeyRequestOptions: {
            /** @description As a second factor: the user's passkeys. */
            allowCredentials?: {
                /** @description The credential id, base64url. */
                id?: string;
                transports?: string[];
                /** @enum {unknown} */
                type?: "public-key";
            }[];
            /** @description base64url; single use, 5 minutes. */
            challenge: string;
            /**
             * Format: uuid
             * @description Passwordless sign-in: send it back with the response.
             */
            challengeId?: string;
            extensions?: {
                [key: string]: unknown;
            };
            hints?: string[];
            rpId?: string;
            timeout?: number;
            /** @enum {unknown} */
            userVerification?: "required";
        };
        PhoneVerified: {
            /** @constant */
            phoneVerified: true;
        };
        Preferences: {
            items: {
                category: string;
                /** @enum {unknown} */
                channel: "EMAIL" | "SMS" | "PUSH" | "IN_APP";
                enabled: boolean;
            }[];
            /** @description Local HH:MM; may wrap midnight. A non-CRITICAL notification due inside them waits until they end. */
            quietHours?: {
                end: string;
                start: string;
            };
            /** @description IANA time zone of the quiet hours, such as Europe/Vienna. */
            timeZone?: string;
        };
        Problem: {
            /**
             * @description The stable code clients branch on.
             * @enum {unknown}
             */
            code: "VALIDATION_ERROR" | "MALFORMED_JSON" | "UNAUTHORIZED" | "INVALID_CREDENTIALS" | "INVALID_REFRESH_TOKEN" | "INVALID_TEMPORARY_TOKEN" | "FORBIDDEN" | "RECIPIENT_NOT_ALLOWED" | "SERVICE_NOT_ALLOWED" | "USER_NOT_CONFIRMED" | "INVALID_SIGNATURE" | "NOT_FOUND" | "ACTOR_NOT_FOUND" | "NOTIFICATION_NOT_FOUND" | "DOCUMENT_NOT_FOUND" | "FEATURE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "USER_EXISTS" | "ACTOR_EXISTS" | "IDEMPOTENCY_CONFLICT" | "INVALID_UNSUBSCRIBE_TOKEN" | "NOT_CANCELLABLE" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "INVALID_PASSWORD" | "TEMPLATE_NOT_FOUND" | "TEMPLATE_VARIABLE_MISSING" | "TEMPLATE_RENDER_ERROR" | "CHANNEL_NOT_SUPPORTED" | "IDEMPOTENCY_KEY_REUSED" | "RATE_LIMITED" | "REQUEST_TIMEOUT" | "INTERNAL" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE" | "SHUTTING_DOWN" | "EMAIL_NOT_VERIFIED" | "EMAIL_ALREADY_VERIFIED" | "INVALID_VERIFICATION_TOKEN" | "INVALID_RESET_TOKEN" | "INVALID_SECURITY_TOKEN" | "SERVICE_EXISTS" | "WEBHOOK_ENDPOINT_EXISTS" | "WEBHOOK_ENDPOINT_LIMIT_REACHED" | "MFA_REQUIRED" | "MFA_ENROLLMENT_REQUIRED" | "INVALID_MFA_CODE" | "INVALID_MFA_TOKEN" | "STEP_UP_REQUIRED" | "INVALID_WEBAUTHN_RESPONSE" | "INVALID_OTP" | "NOT_SUPPORTED_BY_PROVIDER" | "ACCOUNT_DELETED";
            detail: string;
            errors?: {
                column?: number;
                field: string;
                /** @description TEMPLATE_RENDER_ERROR: the line of the field's template. */
                line?: number;
                message: string;
            }[];
            /** @description MFA_REQUIRED: the factors the user can answer with. */
            factors?: ("totp" | "webauthn" | "sms" | "recovery")[];
            /** @description MFA_REQUIRED, MFA_ENROLLMENT_REQUIRED: finishes the sign-in (5 minutes, single use). */
            mfaToken?: string;
            /** @description Also in the X-Request-Id header; quote it when reporting a 5xx. */
            requestId: string;
            status: number;
            title: string;
            /** @description urn:auth-notify:problem:<code in kebab case> */
            type: string;
        };
        PushSubscription: {
            /** Format: date-time */
            createdAt: string;
            endpoint: string;
            /** Format: uuid */
            subscriptionId: string;
        };
        PushSubscriptionList: {
            items: components["schemas"]["PushSubscription"][];
        };
        RecoveryCodes: {
            codes: string[];
        };
        RegisterResult: components["schemas"]["TokenSet"] & {
            /** Format: uuid */
            actorId: string;
        };
        ResumeMetadata: {
            candidateId: string;
            contentType: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: uuid */
            documentId: string;
            filename: string;
            size: number;
        };
        RotatedKey: {
            kid: string;
        };
        ServiceAccount: {
            /** Format: date-time */
            createdAt: string;
            serviceId: string;
            username: string;
        };
        ServiceAccountCreated: components["schemas"]["ServiceAccount"] & {
            /** @description Shown only here. */
            password: string;
        };
        ServiceAccountList: {
            items: components["schemas"]["ServiceAccount"][];
        };
        Session: {
            /** @description How the user signed in (RFC 8176: pwd, otp, hwk, mfa...). */
            amr: string[];
            /** Format: date-time */
            createdAt: string;
            /** @description The session of the token that asked. */
            current: boolean;
            /** @description The client's address at the sign-in, as the gateway saw it. */
            ip: string | null;
            /**
             * Format: date-time
             * @description The sign-in, or the last refresh.
             */
            lastUsedAt: string;
            /** @description The `sid` of the session's tokens. */
            sessionId: string;
            /** @description The User-Agent of the sign-in. */
            userAgent: string | null;
        };
        SessionList: {
            items: components["schemas"]["Session"][];
        };
        /** @description Signed by Amazon SNS: Signature covers the message's fields and is checked against the certificate at SigningCertURL, which must be an SNS host; a message from a topic outside SNS_TOPIC_ARNS is refused. */
        SnsMessage: {
            Message?: string;
            MessageId: string;
            Signature: string;
            /** @enum {unknown} */
            SignatureVersion: "1" | "2";
            /** Format: uri */
            SigningCertURL: string;
            /** Format: uri */
            SubscribeURL?: string;
            /** Format: date-time */
            Timestamp: string;
            Token?: string;
            TopicArn: string;
            /** @enum {unknown} */
            Type: "Notification" | "SubscriptionConfirmation" | "UnsubscribeConfirmation";
        };
        SuppressionList: {
            items: {
                address: string;
                /** @enum {unknown} */
                channel: "EMAIL" | "SMS" | "PUSH" | "IN_APP";
                /** Format: date-time */
                createdAt: string;
                reason: string;
            }[];
        };
        Template: {
            /** Format: date-time */
            createdAt?: string;
            /** @description BCP 47: the language of the top-level parts. */
            defaultLocale?: string;
            html?: string;
            /** @description Translations by BCP 47 tag. */
            locales?: {
                [key: string]: {
                    html?: string;
                    subject?: string;
                    text?: string;
                };
            };
            name: string;
            subject?: string;
            /** Format: uuid */
            templateId: string;
            text?: string;
            /** Format: date-time */
            updatedAt?: string;
            /** @description 1 when created, n+1 on every change. */
            version: number;
        };
        TemplatePreview: {
            /** @description EMAIL only. */
            html?: string;
            /** @description The locale whose parts were rendered. */
            locale?: string;
            /** @description Absent for SMS and for a template without one. */
            subject?: string;
            /** @description Empty when the template has no text part. */
            text: string;
        };
        TemplateVersion: {
            /** Format: date-time */
            createdAt: string;
            /** @description BCP 47: the language of the top-level parts. */
            defaultLocale?: string;
            html?: string;
            /** @description Translations by BCP 47 tag. */
            locales?: {
                [key: string]: {
                    html?: string;
                    subject?: string;
                    text?: string;
                };
            };
            name: string;
            /** @description The version this one restored. */
            restoredFrom?: number;
            subject?: string;
            text?: string;
            version: number;
        };
        Timeline: {
            items: {
                detail?: {
                    [key: string]: unknown;
                };
                event: string;
                id: string;
                /** Format: date-time */
                occurredAt: string;
                /** @enum {unknown} */
                status: "QUEUED" | "PROCESSING" | "SENT" | "DELIVERED" | "BOUNCED" | "COMPLAINT" | "FAILED" | "SUPPRESSED" | "UNSUBSCRIBED" | "CANCELLED" | "DIGESTED" | "THROTTLED";
            }[];
            /** Format: uuid */
            notificationId: string;
            /** @enum {unknown} */
            status: "QUEUED" | "PROCESSING" | "SENT" | "DELIVERED" | "BOUNCED" | "COMPLAINT" | "FAILED" | "SUPPRESSED" | "UNSUBSCRIBED" | "CANCELLED" | "DIGESTED" | "THROTTLED";
        };
        TokenSet: {
            accessToken: string;
            /** @description Unix seconds; the access token's exp. */
            expiresAt: number;
            /** @description Seconds until expiresAt. */
            expiresIn: number;
            idToken: string;
            /** @description Rotated on every refresh: keep only the newest. */
            refreshToken: string;
            /** @constant */
            tokenType: "Bearer";
        };
        TotpConfirmed: {
            /** Format: uuid */
            factorId: string;
            /** @description With the first factor only: 10 single-use codes, shown once. */
            recoveryCodes?: string[];
        };
        TotpEnrolment: {
            /** Format: uuid */
            factorId: string;
            /** @description otpauth://totp/… (SHA1, 6 digits, 30 s): show it as a QR code. */
            otpauthUri: string;
            /** @description The base32 seed, for typing into an app; shown once. */
            secret: string;
        };
        UnsubscribeList: {
            items: {
                address: string;
                category: string;
                /** @enum {unknown} */
                channel: "EMAIL" | "SMS" | "PUSH" | "IN_APP";
                /** Format: date-time */
                createdAt: string;
            }[];
        };
        UnsubscribeResult: {
            address: string;
            category: string;
            /** @enum {unknown} */
            channel: "EMAIL" | "SMS" | "PUSH" | "IN_APP";
            /** Format: date-time */
            createdAt: string;
            /** @constant */
            unsubscribed: true;
        };
        VapidPublicKey: {
            /** @description The VAPID public key (base64url), for pushManager.subscribe(). */
            publicKey: string;
        };
        WebhookEndpoint: {
            /** Format: date-time */
            createdAt: string;
            /** Format: uuid */
            endpointId: string;
            events: string[];
            url: string;
        };
        WebhookEndpointCreated: components["schemas"]["WebhookEndpoint"] & {
            /** @description The signing secret, shown only here. */
            secret: string;
        };
        WebhookEndpointList: {
            items: components["schemas"]["WebhookEndpoint"][];
        };
        WebhookResult: {
            /** @enum {unknown} */
            outcome: "confirmed" | "unsubscribed" | "recorded" | "duplicate" | "ignored" | "disabled" | "unknown-message";
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description The request's id: the client's X-Request-Id when well-formed, else a new one. Problem documents repeat it as requestId. */
        RequestId: string;
        /** @description RFC 6750: `Bearer realm="auth-notify"`, with `error="invalid_token"` and an `error_description` when the Bearer token sent was refused (invalid, expired, not an access token). */
        WWWAuthenticate: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    "auth.jwks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description JSON Web Key Set. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JWKS"];
                };
            };
            /** @description Problem document: NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "actors.find": {
        parameters: {
            query: {
                actorId: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The actors found (at most one). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Actor"][];
                    };
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "actors.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The actor. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Actor"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: ACTOR_NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "ACTOR_NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "actors.update": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "locale": "de-AT"
                 *     }
                 */
                "application/json": {
                    firstName?: string;
                    lastName?: string;
                    locale?: string;
                };
            };
        };
        responses: {
            /** @description The actor as changed. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Actor"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN";
                    };
                };
            };
            /** @description Problem document: ACTOR_NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "ACTOR_NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "notifications.listInbox": {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
                state?: "unread" | "read" | "archived" | "all";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of messages. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InboxPage"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "notifications.markInbox": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                notificationId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "read": true
                 *     }
                 */
                "application/json": {
                    archived?: boolean;
                    read?: boolean;
                    seen?: boolean;
                };
            };
        };
        responses: {
            /** @description The message as marked. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InboxItem"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN";
                    };
                };
            };
            /** @description Problem document: NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "notifications.inboxCount": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The counts. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InboxCounts"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "notifications.readAllInbox": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Done. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "notifications.inboxStream": {
        parameters: {
            query?: {
                after?: string;
            };
            header?: {
                /** @description Resume after this message (the `id:` of a `message` event this stream sent): the messages stored since are sent first. */
                "Last-Event-ID"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The messages after Last-Event-ID and the counts. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InboxSnapshot"];
                    "text/event-stream": components["schemas"]["InboxSnapshot"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN";
                    };
                };
            };
            /** @description Problem document: RATE_LIMITED. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "RATE_LIMITED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "preferences.getPreferences": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The preferences. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Preferences"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN";
                    };
                };
            };
            /** @description Problem document: ACTOR_NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "ACTOR_NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "preferences.putPreferences": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "items": [
                 *         {
                 *           "channel": "EMAIL",
                 *           "category": "marketing",
                 *           "enabled": false
                 *         },
                 *         {
                 *           "channel": "PUSH",
                 *           "category": "*",
                 *           "enabled": false
                 *         }
                 *       ],
                 *       "timeZone": "Europe/Vienna",
                 *       "quietHours": {
                 *         "start": "22:00",
                 *         "end": "07:00"
                 *       }
                 *     }
                 */
                "application/json": {
                    items?: {
                        category: string;
                        /** @enum {unknown} */
                        channel: "EMAIL" | "SMS" | "PUSH" | "IN_APP";
                        enabled: boolean;
                    }[];
                    quietHours?: {
                        end: string;
                        start: string;
                    };
                    timeZone?: string;
                };
            };
        };
        responses: {
            /** @description The preferences now in force. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Preferences"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN, EMAIL_NOT_VERIFIED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN" | "EMAIL_NOT_VERIFIED";
                    };
                };
            };
            /** @description Problem document: ACTOR_NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "ACTOR_NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "notifications.listPushSubscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscriptions. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PushSubscriptionList"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "notifications.addPushSubscription": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "endpoint": "https://fcm.googleapis.com/fcm/send/dQw4w9WgXcQ:APA91bExample",
                 *       "expirationTime": null,
                 *       "keys": {
                 *         "p256dh": "BJlIlb6rxcyKu0oOvhBWcwdlUVAggOP-8HaoxoGbUhm9De8NPcTdT8A6UJCWgOPWJ8ziDP0ZNnblwryAQWDRk68",
                 *         "auth": "1UoVHlKBnnrs9PO0NcR8KQ"
                 *       }
                 *     }
                 */
                "application/json": {
                    /** Format: uri */
                    endpoint: string;
                    expirationTime?: number | null;
                    keys: {
                        /** @description The 16-byte authentication secret, base64url. */
                        auth: string;
                        /** @description The uncompressed P-256 public key, base64url. */
                        p256dh: string;
                    };
                };
            };
        };
        responses: {
            /** @description Added. */
            201: {
                headers: {
                    /** @description The subscription's URL. */
                    Location?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PushSubscription"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN";
                    };
                };
            };
            /** @description Problem document: NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "notifications.deletePushSubscription": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                subscriptionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN";
                    };
                };
            };
            /** @description Problem document: NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.adminAudit": {
        parameters: {
            query?: {
                actorId?: string;
                cursor?: string;
                from?: string;
                to?: string;
                type?: "auth.registered" | "auth.signed_in" | "auth.sign_in_failed" | "auth.signed_in_new_device" | "auth.mfa_challenge_failed" | "auth.refresh_reuse_detected" | "auth.signed_out" | "auth.session_revoked" | "auth.password_changed" | "auth.password_reset" | "auth.email_verified" | "auth.email_changed" | "auth.phone_verified" | "auth.mfa_enrolled" | "auth.mfa_removed" | "auth.recovery_code_used" | "auth.locked" | "auth.unlocked" | "auth.not_me" | "auth.account_exported" | "auth.account_deleted" | "auth.address_undeliverable";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of events (or the NDJSON stream). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditPage"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN, SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN" | "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "features.list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every flag. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["FeatureFlag"][];
                    };
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN, SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN" | "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "features.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                featureName: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The flag. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FeatureFlag"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN, SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN" | "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: FEATURE_NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FEATURE_NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "features.set": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                featureName: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "enabled": true,
                 *       "rolloutPercent": 25
                 *     }
                 */
                "application/json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description The flag as stored. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FeatureFlag"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN, SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN" | "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.rotateKeys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Rotated. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RotatedKey"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN, SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN" | "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "dispatcher.listOutbox": {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of messages. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OutboxPage"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN, SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN" | "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "dispatcher.getOutbox": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The message. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OutboxMessage"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN, SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN" | "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "stats.providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Each provider of EMAIL_PROVIDERS and SMS_PROVIDERS, in order. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** @enum {unknown} */
                            channel: "EMAIL" | "SMS";
                            consecutiveFailures: number;
                            /** @description The code of its latest retryable failure. */
                            lastError?: string;
                            /** @description The provider's name in EMAIL_PROVIDERS or SMS_PROVIDERS. */
                            name: string;
                            /** Format: date-time */
                            since: string;
                            /**
                             * @description down: skipped until its cooldown ends; probing: one message is trying it again.
                             * @enum {unknown}
                             */
                            state: "up" | "down" | "probing";
                        }[];
                    };
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN, SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN" | "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.listServiceAccounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every service account (no passwords). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceAccountList"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN, SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN" | "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.createServiceAccount": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "serviceId": "billing"
                 *     }
                 */
                "application/json": {
                    serviceId: string;
                };
            };
        };
        responses: {
            /** @description Created; the password is shown only here. */
            201: {
                headers: {
                    /** @description The account's URL. */
                    Location?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceAccountCreated"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN, SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN" | "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: SERVICE_EXISTS. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SERVICE_EXISTS";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.deleteServiceAccount": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                serviceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN, SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN" | "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "stats.overview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The overview. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        at: string;
                        /** @description Dispatcher nodes whose last hour is counted. */
                        dispatchers: number;
                        queue: {
                            /** @description QUEUED and due: the backlog. */
                            depth: number;
                            oldestAgeSeconds: number;
                            /** @enum {unknown} */
                            priority: "CRITICAL" | "HIGH" | "NORMAL" | "LOW";
                            /** @description QUEUED and not due yet (a later sendAt, or a retry's wait). */
                            scheduled: number;
                        }[];
                        rates: {
                            /** @description Bounced among email sent in the last 24 hours. */
                            bounce: number;
                            /** @description Complaints among email sent in the last 24 hours. */
                            complaint: number;
                            /** @description Failed among sent and failed in the last hour. */
                            failure: number;
                        };
                        /** @description Notifications sent in the last 60 seconds. */
                        sendsPerMinute: number;
                        series: {
                            depth: {
                                /** Format: date-time */
                                at: string;
                                depth: {
                                    CRITICAL: number;
                                    HIGH: number;
                                    LOW: number;
                                    NORMAL: number;
                                };
                            }[];
                            failed: number[];
                            /** @description The last 60 minutes, oldest first. */
                            minutes: string[];
                            sent: number[];
                        };
                    };
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN, SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN" | "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "preferences.listSuppressions": {
        parameters: {
            query?: {
                address?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The suppressions (of one address when given). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SuppressionList"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN, SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN" | "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "preferences.removeSuppression": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                address: string;
                channel: "EMAIL" | "SMS" | "PUSH" | "IN_APP";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN, SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN" | "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "preferences.listUnsubscribes": {
        parameters: {
            query?: {
                address?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The unsubscribes (of one address when given). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsubscribeList"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN, SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN" | "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "preferences.removeUnsubscribe": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                address: string;
                category: string;
                channel: "EMAIL" | "SMS" | "PUSH" | "IN_APP";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN, SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN" | "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.listUsers": {
        parameters: {
            query?: {
                cursor?: string;
                query?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of accounts. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminUserList"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN, SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN" | "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.getUser": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                actorId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminUser"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN, SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN" | "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: ACTOR_NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "ACTOR_NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.adminDeleteUser": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                actorId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The deletion is under way (usually done when this answers). */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN, SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN" | "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: ACTOR_NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "ACTOR_NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: ACCOUNT_DELETED. */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "ACCOUNT_DELETED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.lockUser": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                actorId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Locked. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN, SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN" | "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: ACTOR_NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "ACTOR_NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.adminRemoveMfa": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                actorId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every factor and recovery code of the user is gone. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN, SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN" | "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.adminEndSessions": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                actorId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ended. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN, SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN" | "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: ACTOR_NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "ACTOR_NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.unlockUser": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                actorId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Unlocked. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN, SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN" | "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: ACTOR_NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "ACTOR_NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "outbound.listAllEndpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoints (no secrets). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminWebhookEndpointList"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN, SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN" | "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.deleteAccount": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The deletion is under way (usually done when this answers). */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED, STEP_UP_REQUIRED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED" | "STEP_UP_REQUIRED";
                    };
                };
            };
            /** @description Problem document: SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: ACTOR_NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "ACTOR_NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: ACCOUNT_DELETED. */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "ACCOUNT_DELETED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.exportAccount": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The export. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountExport"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED, STEP_UP_REQUIRED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED" | "STEP_UP_REQUIRED";
                    };
                };
            };
            /** @description Problem document: SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: ACTOR_NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "ACTOR_NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.auditList": {
        parameters: {
            query?: {
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of events. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditPage"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.changeEmail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "newEmail": "ada.lovelace@example.com"
                 *     }
                 */
                "application/json": {
                    newEmail: string;
                };
            };
        };
        responses: {
            /** @description The confirmation mail to the new address is queued. */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED, STEP_UP_REQUIRED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED" | "STEP_UP_REQUIRED";
                    };
                };
            };
            /** @description Problem document: SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: USER_EXISTS. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "USER_EXISTS";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: RATE_LIMITED. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "RATE_LIMITED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.requestVerification": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description A verification mail is queued. */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: EMAIL_ALREADY_VERIFIED. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "EMAIL_ALREADY_VERIFIED";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: RATE_LIMITED. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "RATE_LIMITED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.verifyEmail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "token": "Zt6Ro1Gi8Ue4Ja0Yc5Pf7Hm2Ks9Tb3Nw6Lr1Xz8Vd4q"
                 *     }
                 */
                "application/json": {
                    token: string;
                };
            };
        };
        responses: {
            /** @description Verified; ID tokens issued from now on carry email_verified: true. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailVerified"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: INVALID_VERIFICATION_TOKEN. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INVALID_VERIFICATION_TOKEN";
                    };
                };
            };
            /** @description Problem document: USER_EXISTS. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "USER_EXISTS";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: RATE_LIMITED. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "RATE_LIMITED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "username": "ada@example.com",
                 *       "password": "Correct-Horse-9"
                 *     }
                 */
                "application/json": {
                    password: string;
                    username: string;
                };
            };
        };
        responses: {
            /** @description Signed in. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenSet"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: INVALID_CREDENTIALS. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INVALID_CREDENTIALS";
                    };
                };
            };
            /** @description Problem document: USER_NOT_CONFIRMED, EMAIL_NOT_VERIFIED, MFA_REQUIRED, MFA_ENROLLMENT_REQUIRED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "USER_NOT_CONFIRMED" | "EMAIL_NOT_VERIFIED" | "MFA_REQUIRED" | "MFA_ENROLLMENT_REQUIRED";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: RATE_LIMITED. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "RATE_LIMITED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "refreshToken": "rt_0190a0a0b1c2d3e4.k3Jx9Qm2Vb7Tz4Lw8Ns1Pd6Hf0Ya5Ce"
                 *     }
                 */
                "application/json": {
                    refreshToken: string;
                };
            };
        };
        responses: {
            /** @description Signed out. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.logoutAll": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Signed out everywhere. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Me"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: ACTOR_NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "ACTOR_NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.mfaChallenge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "mfaToken": "Tb3Nw6Lr1Xz8Vd4qZt6Ro1Gi8Ue4Ja0Yc5Pf7Hm2Ks9",
                 *       "type": "webauthn"
                 *     }
                 */
                "application/json": {
                    mfaToken: string;
                    /** @enum {unknown} */
                    type: "webauthn" | "sms";
                };
            };
        };
        responses: {
            /** @description PublicKeyCredentialRequestOptionsJSON. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PasskeyRequestOptions"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: INVALID_MFA_TOKEN. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INVALID_MFA_TOKEN";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: RATE_LIMITED. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "RATE_LIMITED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.mfaFactors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Active factors (pending enrolments are not listed) and the recovery codes left. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MfaFactors"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.removeFactor": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                factorId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED, STEP_UP_REQUIRED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED" | "STEP_UP_REQUIRED";
                    };
                };
            };
            /** @description Problem document: SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.regenerateRecoveryCodes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description The new codes. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RecoveryCodes"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED, STEP_UP_REQUIRED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED" | "STEP_UP_REQUIRED";
                    };
                };
            };
            /** @description Problem document: SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.enrolTotp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Phone"
                 *     }
                 */
                "application/json": {
                    name?: string;
                };
            };
        };
        responses: {
            /** @description The seed, once: show `otpauthUri` as a QR code. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TotpEnrolment"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED, STEP_UP_REQUIRED, INVALID_MFA_TOKEN. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED" | "STEP_UP_REQUIRED" | "INVALID_MFA_TOKEN";
                    };
                };
            };
            /** @description Problem document: SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.confirmTotp": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                factorId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "code": "123456"
                 *     }
                 */
                "application/json": {
                    code: string;
                };
            };
        };
        responses: {
            /** @description The factor is active. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TotpConfirmed"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED, INVALID_MFA_CODE, INVALID_MFA_TOKEN. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED" | "INVALID_MFA_CODE" | "INVALID_MFA_TOKEN";
                    };
                };
            };
            /** @description Problem document: SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.mfaVerify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "mfaToken": "Tb3Nw6Lr1Xz8Vd4qZt6Ro1Gi8Ue4Ja0Yc5Pf7Hm2Ks9",
                 *       "type": "totp",
                 *       "code": "123456"
                 *     }
                 */
                "application/json": {
                    code?: string;
                    mfaToken: string;
                    response?: {
                        [key: string]: unknown;
                    };
                    /** @enum {unknown} */
                    type: "totp" | "recovery" | "sms" | "webauthn";
                };
            };
        };
        responses: {
            /** @description Signed in; the tokens' amr names both factors. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenSet"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: INVALID_MFA_CODE, INVALID_MFA_TOKEN. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INVALID_MFA_CODE" | "INVALID_MFA_TOKEN";
                    };
                };
            };
            /** @description Problem document: EMAIL_NOT_VERIFIED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "EMAIL_NOT_VERIFIED";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: RATE_LIMITED. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "RATE_LIMITED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.otpStart": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "ada@example.com"
                 *     }
                 */
                "application/json": {
                    /** @enum {unknown} */
                    channel?: "email" | "sms";
                    email?: string;
                    phone?: string;
                };
            };
        };
        responses: {
            /** @description A challenge: follow it with GET /auth/otp/{challengeId}. */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OtpChallenge"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: RATE_LIMITED. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "RATE_LIMITED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: NOT_SUPPORTED_BY_PROVIDER. */
            501: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "NOT_SUPPORTED_BY_PROVIDER";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.otpStatus": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                challengeId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The challenge's status follows its notification's. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OtpStatus"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: RATE_LIMITED. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "RATE_LIMITED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.otpResend": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                challengeId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /** @example {} */
                "application/json": {
                    /** @enum {unknown} */
                    channel?: "email" | "sms";
                };
            };
        };
        responses: {
            /** @description A new code is on its way. */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: RATE_LIMITED. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "RATE_LIMITED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: NOT_SUPPORTED_BY_PROVIDER. */
            501: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "NOT_SUPPORTED_BY_PROVIDER";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.otpVerify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "challengeId": "0b9c3a52-8a53-4c55-9d0e-2b8f7f1e4c11",
                 *       "code": "123456"
                 *     }
                 */
                "application/json": {
                    /** Format: uuid */
                    challengeId?: string;
                    code?: string;
                    token?: string;
                };
            };
        };
        responses: {
            /** @description Signed in. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenSet"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: INVALID_OTP. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INVALID_OTP";
                    };
                };
            };
            /** @description Problem document: MFA_REQUIRED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "MFA_REQUIRED";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: RATE_LIMITED. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "RATE_LIMITED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: NOT_SUPPORTED_BY_PROVIDER. */
            501: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "NOT_SUPPORTED_BY_PROVIDER";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.passkeySignIn": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "challengeId": "0b9f1c4e-3a8d-4f7b-9e21-6c5d8a7f0e13",
                 *       "response": {
                 *         "id": "o4Hx2Qk9b1Zq8Vw3Lr7Tn0Yc5Pf",
                 *         "rawId": "o4Hx2Qk9b1Zq8Vw3Lr7Tn0Yc5Pf",
                 *         "type": "public-key",
                 *         "response": {
                 *           "clientDataJSON": "eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0",
                 *           "authenticatorData": "SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAAAQ",
                 *           "signature": "MEUCIQDx"
                 *         },
                 *         "clientExtensionResults": {}
                 *       }
                 *     }
                 */
                "application/json": {
                    /** Format: uuid */
                    challengeId: string;
                    response: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description Signed in. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenSet"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: INVALID_WEBAUTHN_RESPONSE. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INVALID_WEBAUTHN_RESPONSE";
                    };
                };
            };
            /** @description Problem document: EMAIL_NOT_VERIFIED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "EMAIL_NOT_VERIFIED";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: RATE_LIMITED. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "RATE_LIMITED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: NOT_SUPPORTED_BY_PROVIDER. */
            501: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "NOT_SUPPORTED_BY_PROVIDER";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.passkeySignInOptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "username": "ada@example.com"
                 *     }
                 */
                "application/json": {
                    username?: string;
                };
            };
        };
        responses: {
            /** @description PublicKeyCredentialRequestOptionsJSON with `challengeId`. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PasskeyRequestOptions"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: RATE_LIMITED. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "RATE_LIMITED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: NOT_SUPPORTED_BY_PROVIDER. */
            501: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "NOT_SUPPORTED_BY_PROVIDER";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.registerPasskey": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Laptop",
                 *       "response": {
                 *         "id": "o4Hx2Qk9b1Zq8Vw3Lr7Tn0Yc5Pf",
                 *         "rawId": "o4Hx2Qk9b1Zq8Vw3Lr7Tn0Yc5Pf",
                 *         "type": "public-key",
                 *         "response": {
                 *           "clientDataJSON": "eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0",
                 *           "attestationObject": "o2NmbXRkbm9uZWdhdHRTdG10oGhhdXRoRGF0YVg"
                 *         },
                 *         "clientExtensionResults": {}
                 *       }
                 *     }
                 */
                "application/json": {
                    name?: string;
                    response: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description The passkey is an active factor. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PasskeyRegistered"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON, INVALID_WEBAUTHN_RESPONSE. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON" | "INVALID_WEBAUTHN_RESPONSE";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED, INVALID_MFA_TOKEN. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED" | "INVALID_MFA_TOKEN";
                    };
                };
            };
            /** @description Problem document: SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.passkeyRegistrationOptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description PublicKeyCredentialCreationOptionsJSON. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PasskeyCreationOptions"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED, STEP_UP_REQUIRED, INVALID_MFA_TOKEN. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED" | "STEP_UP_REQUIRED" | "INVALID_MFA_TOKEN";
                    };
                };
            };
            /** @description Problem document: SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.changePassword": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "currentPassword": "Correct-Horse-9",
                 *       "newPassword": "Battery-Staple-7"
                 *     }
                 */
                "application/json": {
                    currentPassword: string;
                    newPassword: string;
                };
            };
        };
        responses: {
            /** @description The password is changed. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED, INVALID_CREDENTIALS, STEP_UP_REQUIRED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED" | "INVALID_CREDENTIALS" | "STEP_UP_REQUIRED";
                    };
                };
            };
            /** @description Problem document: SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: INVALID_PASSWORD. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INVALID_PASSWORD";
                    };
                };
            };
            /** @description Problem document: RATE_LIMITED. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "RATE_LIMITED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.forgotPassword": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "ada@example.com"
                 *     }
                 */
                "application/json": {
                    email: string;
                };
            };
        };
        responses: {
            /** @description A reset mail is queued when the account exists. */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: RATE_LIMITED. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "RATE_LIMITED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.resetPassword": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "token": "Hm2Ks9Tb3Nw6Lr1Xz8Vd4qZt6Ro1Gi8Ue4Ja0Yc5Pf7",
                 *       "password": "Battery-Staple-7"
                 *     }
                 */
                "application/json": {
                    password: string;
                    token: string;
                };
            };
        };
        responses: {
            /** @description The password is set. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: INVALID_RESET_TOKEN. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INVALID_RESET_TOKEN";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: INVALID_PASSWORD. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INVALID_PASSWORD";
                    };
                };
            };
            /** @description Problem document: RATE_LIMITED. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "RATE_LIMITED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.setPhone": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "phone": "+14155550100"
                 *     }
                 */
                "application/json": {
                    phone: string;
                };
            };
        };
        responses: {
            /** @description The code is on its way. */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED, STEP_UP_REQUIRED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED" | "STEP_UP_REQUIRED";
                    };
                };
            };
            /** @description Problem document: SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: RATE_LIMITED. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "RATE_LIMITED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.verifyPhone": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "code": "123456"
                 *     }
                 */
                "application/json": {
                    code: string;
                };
            };
        };
        responses: {
            /** @description The phone number is verified. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PhoneVerified"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED, INVALID_OTP. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED" | "INVALID_OTP";
                    };
                };
            };
            /** @description Problem document: SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: RATE_LIMITED. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "RATE_LIMITED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.refresh.2": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "refreshToken": "rt_0190a0a0b1c2d3e4.k3Jx9Qm2Vb7Tz4Lw8Ns1Pd6Hf0Ya5Ce"
                 *     }
                 */
                "application/json": {
                    refreshToken: string;
                };
            };
        };
        responses: {
            /** @description New tokens. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenSet"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: INVALID_REFRESH_TOKEN. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INVALID_REFRESH_TOKEN";
                    };
                };
            };
            /** @description Problem document: EMAIL_NOT_VERIFIED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "EMAIL_NOT_VERIFIED";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: RATE_LIMITED. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "RATE_LIMITED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "ada@example.com",
                 *       "password": "Correct-Horse-9",
                 *       "firstName": "Ada",
                 *       "lastName": "Lovelace"
                 *     }
                 */
                "application/json": {
                    email: string;
                    firstName: string;
                    lastName: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description Signed in as the new account. */
            201: {
                headers: {
                    /** @description /actors/{actorId} */
                    Location?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RegisterResult"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: USER_EXISTS, ACTOR_EXISTS. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "USER_EXISTS" | "ACTOR_EXISTS";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: INVALID_PASSWORD. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INVALID_PASSWORD";
                    };
                };
            };
            /** @description Problem document: RATE_LIMITED. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "RATE_LIMITED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.notMe": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "token": "Zt6Ro1Gi8Ue4Ja0Yc5Pf7Hm2Ks9Tb3Nw6Lr1Xz8Vd4q"
                 *     }
                 */
                "application/json": {
                    token: string;
                };
            };
        };
        responses: {
            /** @description Secured. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotMeResult"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: INVALID_SECURITY_TOKEN. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INVALID_SECURITY_TOKEN";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: RATE_LIMITED. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "RATE_LIMITED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.serviceToken": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "username": "svc-billing",
                 *       "password": "vT3kQ9xLm2Rz7Wc4Ns8Hb1Yd6Jg0Pf5"
                 *     }
                 */
                "application/json": {
                    password: string;
                    username: string;
                };
            };
        };
        responses: {
            /** @description Signed in. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenSet"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: INVALID_CREDENTIALS. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INVALID_CREDENTIALS";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: RATE_LIMITED. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "RATE_LIMITED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.listSessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sessions. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionList"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.revokeOtherSessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ended (also when there was no other session). */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.revokeSession": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sessionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ended. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: SERVICE_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SERVICE_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.socialLogin": {
        parameters: {
            query?: {
                returnTo?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To the provider's authorization endpoint. */
            302: {
                headers: {
                    /** @description The provider's authorization URL. */
                    Location?: string;
                    /** @description The sign-in binding cookie (HttpOnly). */
                    "Set-Cookie"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.socialCallback": {
        parameters: {
            query?: {
                code?: string;
                error?: string;
                state?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To the UI, with ?token= or ?error=. */
            302: {
                headers: {
                    /** @description The UI address. */
                    Location?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "auth.exchange": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "token": "q4Vd8Xz1Lr6Nw3Tb9Ks2Hm7Pf5Yc0Ja4Ue8Gi1Ro6Zt"
                 *     }
                 */
                "application/json": {
                    token: string;
                };
            };
        };
        responses: {
            /** @description Signed in. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenSet"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: INVALID_TEMPORARY_TOKEN. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INVALID_TEMPORARY_TOKEN";
                    };
                };
            };
            /** @description Problem document: MFA_REQUIRED, MFA_ENROLLMENT_REQUIRED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "MFA_REQUIRED" | "MFA_ENROLLMENT_REQUIRED";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: RATE_LIMITED. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "RATE_LIMITED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "refreshToken": "rt_0190a0a0b1c2d3e4.k3Jx9Qm2Vb7Tz4Lw8Ns1Pd6Hf0Ya5Ce"
                 *     }
                 */
                "application/json": {
                    refreshToken: string;
                };
            };
        };
        responses: {
            /** @description New tokens. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenSet"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: INVALID_REFRESH_TOKEN. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INVALID_REFRESH_TOKEN";
                    };
                };
            };
            /** @description Problem document: EMAIL_NOT_VERIFIED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "EMAIL_NOT_VERIFIED";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: RATE_LIMITED. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "RATE_LIMITED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "api.console": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The console's HTML page. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN";
                    };
                };
            };
        };
    };
    "api.consoleAsset": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A script, the stylesheet or the icon of the console. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "image/svg+xml": string;
                    "text/css": string;
                    "text/javascript": string;
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN";
                    };
                };
            };
        };
    };
    "api.docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An HTML page rendered by Swagger UI from /openapi.json. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN";
                    };
                };
            };
        };
    };
    "api.docsAsset": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A stylesheet, script or icon of Swagger UI. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "image/png": string;
                    "text/css": string;
                    "text/javascript": string;
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN";
                    };
                };
            };
        };
    };
    "api.live": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process answers. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthReport"];
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN";
                    };
                };
            };
        };
    };
    "api.ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every dependency answers. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthReport"];
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description A dependency is down, or the node is stopping. Or a problem document: SHUTTING_DOWN. */
            503: {
                headers: {
                    /** @description Seconds. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthReport"];
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN";
                    };
                };
            };
        };
    };
    "auth.issuerJwks": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                pool: "actors" | "services";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The JSON Web Key Set. */
            200: {
                headers: {
                    /** @description public, max-age=300 */
                    "Cache-Control"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JWKS"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "auth.openidConfiguration": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                pool: "actors" | "services";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The issuer's provider metadata. */
            200: {
                headers: {
                    /** @description public, max-age=300 */
                    "Cache-Control"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenIdConfiguration"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "notifications.list": {
        parameters: {
            query?: {
                channel?: "EMAIL" | "SMS" | "PUSH" | "IN_APP";
                cursor?: string;
                limit?: number;
                status?: "QUEUED" | "PROCESSING" | "SENT" | "DELIVERED" | "BOUNCED" | "COMPLAINT" | "FAILED" | "SUPPRESSED" | "UNSUBSCRIBED" | "CANCELLED" | "DIGESTED" | "THROTTLED";
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of notifications (without events). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationPage"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "notifications.create": {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe. Scoped to the caller: the same key with the same body answers the original result again; with another body, 422 IDEMPOTENCY_KEY_REUSED. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "to": "ada@example.com",
                 *       "priority": "HIGH",
                 *       "category": "orders",
                 *       "template": {
                 *         "subject": "Your order {{order}} has shipped",
                 *         "text": "Hello {{name}}, order {{order}} is on its way."
                 *       },
                 *       "variables": {
                 *         "name": "Ada",
                 *         "order": "A-1042"
                 *       }
                 *     }
                 */
                "application/json": {
                    category?: string;
                    /** @enum {unknown} */
                    channel?: "EMAIL" | "SMS" | "PUSH" | "IN_APP";
                    data?: {
                        [key: string]: unknown;
                    };
                    digest?: {
                        key: string;
                        windowSeconds: number;
                    };
                    locale?: string;
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /** @enum {unknown} */
                    priority?: "CRITICAL" | "HIGH" | "NORMAL" | "LOW";
                    sendAt?: string;
                    template?: {
                        html?: string;
                        subject?: string;
                        text?: string;
                    };
                    /** Format: uuid */
                    templateId?: string;
                    throttle?: {
                        key: string;
                        limit: number;
                        windowSeconds: number;
                    };
                    to: string;
                    variables?: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description Queued. */
            201: {
                headers: {
                    /** @description /notifications/{notificationId} */
                    Location?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationAccepted"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: RECIPIENT_NOT_ALLOWED. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "RECIPIENT_NOT_ALLOWED";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: TEMPLATE_NOT_FOUND, TEMPLATE_VARIABLE_MISSING, TEMPLATE_RENDER_ERROR, CHANNEL_NOT_SUPPORTED, IDEMPOTENCY_KEY_REUSED. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "TEMPLATE_NOT_FOUND" | "TEMPLATE_VARIABLE_MISSING" | "TEMPLATE_RENDER_ERROR" | "CHANNEL_NOT_SUPPORTED" | "IDEMPOTENCY_KEY_REUSED";
                    };
                };
            };
            /** @description Problem document: RATE_LIMITED. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "RATE_LIMITED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "notifications.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                notificationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The notification. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Notification"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: NOTIFICATION_NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "NOTIFICATION_NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "notifications.cancel": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                notificationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Cancelled: the view, status CANCELLED. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Notification"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: NOTIFICATION_NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "NOTIFICATION_NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: NOT_CANCELLABLE. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "NOT_CANCELLABLE";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "notifications.events": {
        parameters: {
            query?: {
                after?: string;
            };
            header?: {
                /** @description Resume after this event (the `id:` of an event this stream sent); `after` does the same for the JSON timeline. */
                "Last-Event-ID"?: string;
            };
            path: {
                notificationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The timeline (after Last-Event-ID when given). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Timeline"];
                    "text/event-stream": components["schemas"]["Timeline"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: NOTIFICATION_NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "NOTIFICATION_NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: RATE_LIMITED. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "RATE_LIMITED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "notifications.vapidPublicKey": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key to pass to pushManager.subscribe(). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VapidPublicKey"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "webhooks.emailProvider": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The SNS message as SNS posts it (text/plain), or as JSON. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["SnsMessage"];
                "text/plain": string;
            };
        };
        responses: {
            /** @description Handled (or ignored). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookResult"];
                };
            };
            /** @description Problem document: MALFORMED_JSON, VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "MALFORMED_JSON" | "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: INVALID_SIGNATURE. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INVALID_SIGNATURE";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "webhooks.smsProvider": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The SNS message as SNS posts it (text/plain), or as JSON. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["SnsMessage"];
                "text/plain": string;
            };
        };
        responses: {
            /** @description Handled (or ignored). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookResult"];
                };
            };
            /** @description Problem document: MALFORMED_JSON, VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "MALFORMED_JSON" | "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: INVALID_SIGNATURE. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INVALID_SIGNATURE";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "api.openapi": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenApiDocument"];
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN";
                    };
                };
            };
        };
    };
    "documents.upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    candidateId?: string;
                    resume: string;
                };
            };
        };
        responses: {
            /** @description Stored. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResumeMetadata"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "documents.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The resume's metadata. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResumeMetadata"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: DOCUMENT_NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "DOCUMENT_NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "documents.content": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file as uploaded. */
            200: {
                headers: {
                    /** @description attachment, with the stored filename. */
                    "Content-Disposition"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: DOCUMENT_NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "DOCUMENT_NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "notifications.listTemplates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The templates. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Template"][];
                    };
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "notifications.createTemplate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "order-shipped",
                 *       "defaultLocale": "en",
                 *       "subject": "Your order {{ order }} has shipped",
                 *       "text": "Hello {{ name }}, order {{ order }} is on its way.{% if items %} It holds:{% for item in items %} {{ item.title }}{% endfor %}.{% endif %}",
                 *       "html": "<p>Hello {{ name }}, order <b>{{ order }}</b> is on its way.</p>{% if items %}<ul>{% for item in items %}<li>{{ item.title }}</li>{% endfor %}</ul>{% endif %}",
                 *       "locales": {
                 *         "de": {
                 *           "subject": "Ihre Bestellung {{ order }} ist unterwegs",
                 *           "text": "Hallo {{ name }}, Bestellung {{ order }} ist unterwegs."
                 *         }
                 *       }
                 *     }
                 */
                "application/json": {
                    defaultLocale?: string;
                    html?: string;
                    locales?: {
                        [key: string]: {
                            html?: string;
                            subject?: string;
                            text?: string;
                        };
                    };
                    name: string;
                    subject?: string;
                    text?: string;
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    /** @description /templates/{templateId} */
                    Location?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Template"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: TEMPLATE_RENDER_ERROR. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "TEMPLATE_RENDER_ERROR";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "notifications.getTemplate": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The template (its newest version). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Template"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "notifications.updateTemplate": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "order-shipped",
                 *       "defaultLocale": "en",
                 *       "subject": "Order {{ order }} shipped",
                 *       "text": "Hello {{ name }}, order {{ order }} is on its way.{% if items %} It holds:{% for item in items %} {{ item.title }}{% endfor %}.{% endif %}",
                 *       "html": "<p>Hello {{ name }}, order <b>{{ order }}</b> is on its way.</p>{% if items %}<ul>{% for item in items %}<li>{{ item.title }}</li>{% endfor %}</ul>{% endif %}",
                 *       "locales": {
                 *         "de": {
                 *           "subject": "Ihre Bestellung {{ order }} ist unterwegs",
                 *           "text": "Hallo {{ name }}, Bestellung {{ order }} ist unterwegs."
                 *         }
                 *       }
                 *     }
                 */
                "application/json": {
                    defaultLocale?: string;
                    html?: string;
                    locales?: {
                        [key: string]: {
                            html?: string;
                            subject?: string;
                            text?: string;
                        };
                    };
                    name: string;
                    subject?: string;
                    text?: string;
                };
            };
        };
        responses: {
            /** @description Replaced: the new version. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Template"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN";
                    };
                };
            };
            /** @description Problem document: NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: TEMPLATE_RENDER_ERROR. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "TEMPLATE_RENDER_ERROR";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "notifications.previewTemplate": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "variables": {
                 *         "name": "Ada",
                 *         "order": "A-1042",
                 *         "items": [
                 *           {
                 *             "title": "Tea"
                 *           },
                 *           {
                 *             "title": "Cups"
                 *           }
                 *         ]
                 *       },
                 *       "locale": "de-AT",
                 *       "channel": "EMAIL"
                 *     }
                 */
                "application/json": {
                    /** @enum {unknown} */
                    channel?: "EMAIL" | "SMS" | "PUSH" | "IN_APP";
                    locale?: string;
                    variables?: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description The rendered parts. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TemplatePreview"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: TEMPLATE_RENDER_ERROR. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "TEMPLATE_RENDER_ERROR";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "notifications.templateVersions": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every version. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["TemplateVersion"][];
                    };
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "notifications.restoreTemplateVersion": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                version: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Restored: the new version. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Template"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: FORBIDDEN. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "FORBIDDEN";
                    };
                };
            };
            /** @description Problem document: NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "api.uiPage": {
        parameters: {
            query?: {
                error?: string;
                returnTo?: string;
                token?: string;
            };
            header?: never;
            path: {
                page: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page, or its script. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                    "text/javascript": string;
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN";
                    };
                };
            };
        };
    };
    "api.uiCallback": {
        parameters: {
            query?: {
                error?: string;
                returnTo?: string;
                token?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page, or its script. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                    "text/javascript": string;
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN";
                    };
                };
            };
        };
    };
    "preferences.unsubscribePage": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Problem document: VALIDATION_ERROR, INVALID_UNSUBSCRIBE_TOKEN. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "INVALID_UNSUBSCRIBE_TOKEN";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "preferences.unsubscribe": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/x-www-form-urlencoded": {
                    /** @constant */
                    "List-Unsubscribe"?: "One-Click";
                };
            };
        };
        responses: {
            /** @description Unsubscribed. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsubscribeResult"];
                    "text/html": components["schemas"]["UnsubscribeResult"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR, INVALID_UNSUBSCRIBE_TOKEN. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "INVALID_UNSUBSCRIBE_TOKEN";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "outbound.listEndpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoints (no secrets). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointList"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "outbound.createEndpoint": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://hooks.example.com/auth-notify",
                 *       "events": [
                 *         "notification.delivered",
                 *         "notification.failed"
                 *       ]
                 *     }
                 */
                "application/json": {
                    events?: ("notification.queued" | "notification.processing" | "notification.sent" | "notification.delivered" | "notification.bounced" | "notification.complaint" | "notification.failed" | "notification.suppressed" | "notification.unsubscribed" | "notification.cancelled" | "notification.digested" | "notification.throttled")[];
                    url: string;
                };
            };
        };
        responses: {
            /** @description Registered; the secret is shown only here. */
            201: {
                headers: {
                    /** @description The endpoint's URL. */
                    Location?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointCreated"];
                };
            };
            /** @description Problem document: VALIDATION_ERROR, MALFORMED_JSON. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR" | "MALFORMED_JSON";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: WEBHOOK_ENDPOINT_EXISTS, WEBHOOK_ENDPOINT_LIMIT_REACHED. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "WEBHOOK_ENDPOINT_EXISTS" | "WEBHOOK_ENDPOINT_LIMIT_REACHED";
                    };
                };
            };
            /** @description Problem document: PAYLOAD_TOO_LARGE. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "PAYLOAD_TOO_LARGE";
                    };
                };
            };
            /** @description Problem document: UNSUPPORTED_MEDIA_TYPE. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNSUPPORTED_MEDIA_TYPE";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
    "outbound.deleteEndpoint": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem document: VALIDATION_ERROR. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "VALIDATION_ERROR";
                    };
                };
            };
            /** @description Problem document: UNAUTHORIZED. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "UNAUTHORIZED";
                    };
                };
            };
            /** @description Problem document: NOT_FOUND. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "NOT_FOUND";
                    };
                };
            };
            /** @description Problem document: INTERNAL. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "INTERNAL";
                    };
                };
            };
            /** @description Problem document: SHUTTING_DOWN, UPSTREAM_UNAVAILABLE, STORAGE_UNAVAILABLE. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: string;
                    "X-Request-Id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {unknown} */
                        code?: "SHUTTING_DOWN" | "UPSTREAM_UNAVAILABLE" | "STORAGE_UNAVAILABLE";
                    };
                };
            };
        };
    };
}
