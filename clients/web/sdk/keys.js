// Signing in with the player's key (PROTOCOL.md section 7, "Accounts"): an Ed25519 key pair made by
// WebCrypto with its private half not extractable (no script, not even this page's, can read it out),
// kept in IndexedDB with the account's name; the server stores only the public half. Each connection's
// hello.nonce is signed, so a signature copied from the wire signs nobody in.

export const SIGN_IN_CONTEXT = "boneyard-sign-in/1";
const ED25519 = { name: "Ed25519" };
const DB = "boneyard";
const STORE = "keys";
const MINE = "account";

/** Unpadded base64url of bytes, as keys and signatures travel. */
export function base64url(bytes) {
  let text = "";
  for (const byte of new Uint8Array(bytes)) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The bytes signed to sign in as `account` on the connection whose hello sent `nonce`. */
export const signInMessage = (nonce, account) => new TextEncoder().encode(`${SIGN_IN_CONTEXT}\n${nonce}\n${account}`);

/** A new key pair: the private key cannot be exported, the public one can (it is sent). */
export function newKeyPair() {
  return crypto.subtle.generateKey(ED25519, false, ["sign", "verify"]);
}

/** identify.sign_in for this connection's nonce (`create`: register the account; `link_code`: add this
 * key to it). */
export async function signIn(keyPair, account, nonce, { create = false, linkCode = null } = {}) {
  const publicKey = base64url(await crypto.subtle.exportKey("raw", keyPair.publicKey));
  const signature = base64url(await crypto.subtle.sign(ED25519, keyPair.privateKey, signInMessage(nonce, account)));
  return { account, public_key: publicKey, signature, create, link_code: linkCode };
}

function request(idbRequest) {
  return new Promise((resolve, reject) => {
    idbRequest.onsuccess = () => resolve(idbRequest.result);
    idbRequest.onerror = () => reject(idbRequest.error);
  });
}

/** This browser's account and key, in IndexedDB (one per server: IndexedDB belongs to the page's origin). */
export class KeyChain {
  constructor(db) {
    this.db = db;
  }

  static async open(indexedDB = globalThis.indexedDB) {
    const opening = indexedDB.open(DB, 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore(STORE);
    return new KeyChain(await request(opening));
  }

  /** {account, keyPair} or null. */
  async load() {
    return (await request(this.db.transaction(STORE).objectStore(STORE).get(MINE))) ?? null;
  }

  async save(account, keyPair) {
    await request(this.db.transaction(STORE, "readwrite").objectStore(STORE).put({ account, keyPair }, MINE));
  }

  async forget() {
    await request(this.db.transaction(STORE, "readwrite").objectStore(STORE).delete(MINE));
  }
}
