// api.js: the server's small JSON API over HTTP (docs/protocol.md). Every
// failure becomes an Error whose message is the server's reason.
export async function api(method, path, body) {
  let r;
  try {
    r = await fetch(path, {
      method, headers: body ? { 'Content-Type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined, cache: 'no-cache',
    });
  } catch (e) {
    throw new Error(`network: ${e.message}`);
  }
  let data = null;
  const text = await r.text();
  try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
  if (!r.ok) {
    const why = (data && (data.error || data.message)) || text || r.statusText;
    const err = new Error(`${r.status}: ${why}`);
    err.status = r.status;
    err.data = data; // the whole answer (a ban's end: moderation.js)
    throw err;
  }
  return data;
}
