/**
 * Tokens for the local platform (docs/api.md#authentication): the client-credentials
 * exchange issues a real HS256-signed JWT; every other call must carry it.
 * The signing key is random per platform (kept in the store, so tokens
 * survive a restart with a data directory).
 *
 * @example
 * ```ts
 * import { TokenService } from "./auth.ts";
 * import { resolveOperator } from "../options.ts";
 * const op = resolveOperator({ clientId: "id", clientSecret: "secret" });
 * const tokens = new TokenService(op, crypto.getRandomValues(new Uint8Array(32)), 60);
 * const { access_token } = await tokens.issue("id", "secret");
 * const caller = await tokens.verify(`Bearer ${access_token}`);
 * if (caller.account.id !== op.accounts[0].id) throw new Error();
 * ```
 *
 * @module
 */
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import type { TokenResponse } from "../../schemas/mod.ts";
import { forbidden, unauthorized } from "../errors.ts";
import type { Credential, Operator, OperatorAccount } from "../options.ts";

/** Who is calling: the account and the user behind the token. */
export interface Caller {
  /** The account the credentials belong to. */
  account: OperatorAccount;
  /** The user the credentials act for (`created_by`). */
  user: { id: string; name: string };
  /** The client id (never the secret). */
  clientId: string;
}

const ISSUER = "mlplatform-local";

/**
 * Verified tokens remembered at most: past it the oldest is forgotten (and
 * verified again if it comes back). A token is about 300 bytes.
 */
const VERIFIED_TOKENS = 4096;

const BASE64URL =
  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/**
 * Whether a JWT segment is base64url as an encoder writes it: its last
 * character's unused low bits are 0. A decoder ignores them, so without
 * this check a token whose text was changed there (`...A` -> `...B`) would
 * verify as the original: a changed token must be refused.
 */
function canonicalBase64url(segment: string): boolean {
  const rest = segment.length % 4;
  if (rest === 1) return false;
  if (rest === 0) return true;
  const last = BASE64URL.indexOf(segment[segment.length - 1]);
  return last >= 0 && (last & (rest === 2 ? 15 : 3)) === 0;
}

/** What a verified token said: its subject, account and expiry (epoch s). */
interface Verified {
  sub: string | undefined;
  acc: unknown;
  exp: number;
}

/** Issues and verifies access tokens. */
export class TokenService {
  #operator: Operator;
  #key: Uint8Array;
  #ttl: number;
  /** The HMAC key imported once: jose re-imports raw bytes on every call. */
  #cryptoKey: Promise<CryptoKey> | undefined;
  /**
   * Tokens whose signature was checked, by their exact text. Checking one
   * (base64 and JSON decoding, an HMAC on a crypto thread) was half the CPU
   * of a one-row views call; the same text always verifies the same way under
   * the same key, so only the expiry and the account are checked again.
   */
  #verified = new Map<string, Verified>();
  readonly #now: () => number;

  /**
   * @param operator The accounts and credentials.
   * @param key HMAC key (32 random bytes).
   * @param ttlSeconds `expires_in` of issued tokens.
   * @param now The clock tokens are issued and checked by, in milliseconds
   * since the epoch (default `Date.now`; tests pass their own to expire a
   * token without waiting).
   *
   * @example
   * ```ts
   * import { TokenService } from "./auth.ts";
   * import { resolveOperator } from "../options.ts";
   * new TokenService(resolveOperator({}), new Uint8Array(32), 3600);
   * ```
   */
  constructor(
    operator: Operator,
    key: Uint8Array,
    ttlSeconds: number,
    now: () => number = Date.now,
  ) {
    this.#operator = operator;
    this.#key = key;
    this.#ttl = ttlSeconds;
    this.#now = now;
  }

  /** The signing key as a `CryptoKey`, imported on first use. */
  #hmacKey(): Promise<CryptoKey> {
    return this.#cryptoKey ??= crypto.subtle.importKey(
      "raw",
      new Uint8Array(this.#key),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign", "verify"],
    );
  }

  #credential(clientId: string): [Credential, OperatorAccount] | undefined {
    for (const account of this.#operator.accounts) {
      const c = account.credentials.find((c) => c.clientId === clientId);
      if (c) return [c, account];
    }
    return undefined;
  }

  /**
   * The claims of a token with a good signature that has not expired (401
   * otherwise), from the cache of verified tokens when it is there.
   */
  async #claims(token: string): Promise<Verified> {
    const now = Math.floor(this.#now() / 1000);
    const known = this.#verified.get(token);
    if (known) {
      // jose's rule: expired once `exp <= now`.
      if (known.exp > now) return known;
      this.#verified.delete(token);
      throw unauthorized(
        "The access token has expired: get a new one from POST /oauth/token.",
      );
    }
    let claims: Verified;
    try {
      if (!token.split(".").every(canonicalBase64url)) {
        throw new Error("not canonical base64url");
      }
      const { payload } = await jwtVerify(token, await this.#hmacKey(), {
        issuer: ISSUER,
        algorithms: ["HS256"],
        requiredClaims: ["exp"],
        currentDate: new Date(this.#now()),
      });
      claims = { sub: payload.sub, acc: payload.acc, exp: payload.exp! };
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) {
        throw unauthorized(
          "The access token has expired: get a new one from POST /oauth/token.",
        );
      }
      throw unauthorized(
        "The access token is not valid (bad signature or format): get a new one from POST /oauth/token.",
      );
    }
    if (this.#verified.size >= VERIFIED_TOKENS) {
      this.#verified.delete(this.#verified.keys().next().value!);
    }
    this.#verified.set(token, claims);
    return claims;
  }

  /**
   * Exchanges credentials for a token (endpoint 1). Wrong credentials get 401
   * (the same answer whichever half is wrong, so ids cannot be probed).
   *
   * @example
   * ```ts
   * import { TokenService } from "./auth.ts";
   * import { resolveOperator } from "../options.ts";
   * const t = new TokenService(resolveOperator({ clientId: "a", clientSecret: "b" }), new Uint8Array(32), 60);
   * const ok = await t.issue("a", "b");
   * if (ok.token_type !== "Bearer" || ok.expires_in !== 60) throw new Error();
   * ```
   */
  async issue(
    clientId: string,
    clientSecret: string,
  ): Promise<TokenResponse> {
    const found = this.#credential(clientId);
    if (!found || !(await sameSecret(found[0].clientSecret, clientSecret))) {
      throw unauthorized(
        "Invalid client credentials: check client_id and client_secret (MLP_CLIENT_ID / MLP_CLIENT_SECRET).",
      );
    }
    const [credential, account] = found;
    const now = Math.floor(this.#now() / 1000);
    const access_token = await new SignJWT({ acc: account.id })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject(credential.clientId)
      .setIssuer(ISSUER)
      .setIssuedAt(now)
      .setExpirationTime(now + this.#ttl)
      .setJti(crypto.randomUUID())
      .sign(await this.#hmacKey());
    return { access_token, token_type: "Bearer", expires_in: this.#ttl };
  }

  /**
   * Checks an `Authorization` header: 401 when missing, malformed, badly
   * signed or expired; 403 when the account is not ACTIVE.
   *
   * @example
   * ```ts
   * import { TokenService } from "./auth.ts";
   * import { resolveOperator } from "../options.ts";
   * const t = new TokenService(resolveOperator({}), new Uint8Array(32), 60);
   * const status = await t.verify(null).catch((e) => e.status);
   * if (status !== 401) throw new Error();
   * ```
   */
  async verify(authorization: string | null | undefined): Promise<Caller> {
    const match = authorization?.match(/^Bearer\s+(\S+)\s*$/i);
    if (!match) {
      throw unauthorized(
        "This request needs an access token: get one from POST /oauth/token and send it as 'Authorization: Bearer <token>'.",
      );
    }
    const found = this.#behind(await this.#claims(match[1]));
    if (!found) {
      throw unauthorized(
        "The credentials behind this token no longer exist: ask the operator for new ones.",
      );
    }
    const account = found[1];
    if (account.status !== "ACTIVE") {
      throw forbidden(
        `Account "${account.name}" is ${account.status}, not ACTIVE: ask the operator to reactivate it.`,
      );
    }
    return callerOf(found);
  }

  /** The credential and account behind verified claims, while they still stand together. */
  #behind(claims: Verified): [Credential, OperatorAccount] | undefined {
    const found = claims.sub ? this.#credential(claims.sub) : undefined;
    return found && found[1].id === claims.acc ? found : undefined;
  }

  /**
   * The caller of an `Authorization` header whose token was verified before,
   * at once (no promise): `Bearer ` and a remembered token, unexpired, whose
   * credentials and ACTIVE account still stand. Anything else, a bad or
   * expired token included, is `undefined`: {@linkcode verify} then answers
   * (and words the 401 or 403). A remembered token is one that passed
   * `verify` (its text came out of the header's pattern), so a header of
   * `Bearer ` and that text is read the same way by both.
   *
   * @example
   * ```ts
   * import { TokenService } from "./auth.ts";
   * import { resolveOperator } from "../options.ts";
   * const t = new TokenService(resolveOperator({ clientId: "a", clientSecret: "b" }), new Uint8Array(32), 60);
   * const { access_token } = await t.issue("a", "b");
   * if (t.known(`Bearer ${access_token}`) !== undefined) throw new Error("not verified yet");
   * await t.verify(`Bearer ${access_token}`);
   * if (t.known(`Bearer ${access_token}`)?.clientId !== "a") throw new Error();
   * if (t.known(`Bearer ${access_token}x`) !== undefined) throw new Error("another token");
   * ```
   */
  known(authorization: string | null | undefined): Caller | undefined {
    if (!authorization?.startsWith("Bearer ")) return undefined;
    const claims = this.#verified.get(authorization.slice(7));
    // jose's rule: expired once `exp <= now`.
    if (!claims || !(claims.exp > Math.floor(this.#now() / 1000))) {
      return undefined;
    }
    const found = this.#behind(claims);
    return found && found[1].status === "ACTIVE" ? callerOf(found) : undefined;
  }
}

/** The caller a standing credential and its account make. */
function callerOf(
  [credential, account]: [Credential, OperatorAccount],
): Caller {
  return { account, user: credential.user, clientId: credential.clientId };
}

/** Constant-time comparison through SHA-256 digests (equal lengths). */
async function sameSecret(a: string, b: string): Promise<boolean> {
  const enc = new TextEncoder();
  const [x, y] = await Promise.all([
    crypto.subtle.digest("SHA-256", enc.encode(a)),
    crypto.subtle.digest("SHA-256", enc.encode(b)),
  ]);
  const u = new Uint8Array(x), v = new Uint8Array(y);
  let diff = 0;
  for (let i = 0; i < u.length; i++) diff |= u[i] ^ v[i];
  return diff === 0;
}
