// Passkeys (WebAuthn) for the account screens: the server's options (JSON, binary fields in
// base64url) made into what navigator.credentials.create/get take, and the credential they give
// made into JSON for the server (docs/accounts.md).

export function passkeysSupported() {
  return Boolean(window.PublicKeyCredential && navigator.credentials && window.isSecureContext);
}

export function base64urlToBuffer(text) {
  const b64 = String(text).replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

export function bufferToBase64url(buffer) {
  const bytes = buffer instanceof ArrayBuffer ? new Uint8Array(buffer) : new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const credentialList = (list) => (list || []).map((c) => ({ ...c, id: base64urlToBuffer(c.id) }));

// {publicKey} for navigator.credentials.create from the server's creation options
export function creationOptions(json) {
  const o = json.publicKey || json;
  return {
    publicKey: {
      ...o,
      challenge: base64urlToBuffer(o.challenge),
      user: { ...o.user, id: base64urlToBuffer(o.user.id) },
      excludeCredentials: credentialList(o.excludeCredentials),
    },
  };
}

// {publicKey} for navigator.credentials.get from the server's request options
export function requestOptions(json) {
  const o = json.publicKey || json;
  return { publicKey: { ...o, challenge: base64urlToBuffer(o.challenge), allowCredentials: credentialList(o.allowCredentials) } };
}

// a PublicKeyCredential as JSON (the registration or the authentication response)
export function credentialToJSON(credential) {
  const r = credential.response;
  const response = { clientDataJSON: bufferToBase64url(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = bufferToBase64url(r.attestationObject);
    if (r.getTransports) response.transports = r.getTransports();
  }
  if (r.authenticatorData) response.authenticatorData = bufferToBase64url(r.authenticatorData);
  if (r.signature) response.signature = bufferToBase64url(r.signature);
  if (r.userHandle) response.userHandle = bufferToBase64url(r.userHandle);
  return {
    id: credential.id,
    rawId: bufferToBase64url(credential.rawId),
    type: credential.type,
    response,
    authenticatorAttachment: credential.authenticatorAttachment || null,
    clientExtensionResults: credential.getClientExtensionResults ? credential.getClientExtensionResults() : {},
  };
}
