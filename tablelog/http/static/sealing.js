// Sealed plays and checkpoints, the client's half (README, "Provable fairness").
//
// A sealed play leaves this browser as a commitment only: the salt comes from
// crypto.getRandomValues, the hash is WebCrypto's SHA-256 over exactly the encoding the
// service checks (tablelog/rules/sealing.py), and the choice and salt stay in this browser's
// localStorage until the opening. Checkpoints the service signs are kept here too, as the
// JSON Lines `tablelog verify --checkpoint FILE` reads. No rule of any game lives here.
"use strict";

const tablelogSealing = (function () {
  const TAG = "tablelog-sealed-play-v1";
  const SALT_BYTES = 32;
  const text = new TextEncoder();

  function hex(bytes) {
    return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  }

  function unhex(digits) {
    return new Uint8Array((digits.match(/../g) || []).map((pair) => parseInt(pair, 16)));
  }

  // A field: its length as 4 big-endian bytes, then its bytes.
  function field(bytes) {
    const out = new Uint8Array(4 + bytes.length);
    new DataView(out.buffer).setUint32(0, bytes.length);
    out.set(bytes, 4);
    return out;
  }

  function available() {
    return Boolean(window.crypto && window.crypto.subtle);
  }

  // SHA-256(TAG 0x00 || f(campaign) || f(conflict) || f(round) || f(side) || f(choice) || f(salt)),
  // in hex. The round is its decimal digits; the salt its raw bytes.
  async function commitment(campaign, conflict, round, side, choice, salt) {
    const parts = [text.encode(TAG), new Uint8Array([0])];
    for (const part of [campaign, conflict, String(round), side, choice]) {
      parts.push(field(text.encode(part)));
    }
    parts.push(field(salt));
    const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) { all.set(p, at); at += p.length; }
    return hex(new Uint8Array(await crypto.subtle.digest("SHA-256", all)));
  }

  function newSalt() {
    return crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  }

  // Kept openings: one localStorage entry per (campaign, conflict, round, side), mapping each
  // commitment sent to its choice and salt (a play sent twice keeps both: the one the service
  // holds is found by its commitment at the opening).
  function slot(campaign, conflict, round, side) {
    return "tablelog:sealed:" + JSON.stringify([campaign, conflict, Number(round), side]);
  }

  function kept(key) {
    try { return JSON.parse(localStorage.getItem(key) || "{}") || {}; } catch (e) { return {}; }
  }

  function keep(key, commitmentHex, choice, salt, parts) {
    const found = kept(key);
    found[commitmentHex] = { choice: choice, salt: hex(salt), parts: parts || null };
    localStorage.setItem(key, JSON.stringify(found));
  }

  function opening(key, commitmentHex) {
    return kept(key)[commitmentHex] || null;
  }

  function forget(key) {
    localStorage.removeItem(key);
  }

  // Committed shuffles (tablelog/rules/rng.py `pledge`): SHA-256("tablelog/rng/pledge/v1" 0x00
  // || f(campaign) || f(request) || f(player) || value), the value's 32 raw bytes last.
  async function pledge(campaign, request, player, value) {
    const parts = [text.encode("tablelog/rng/pledge/v1"), new Uint8Array([0])];
    for (const part of [campaign, request, player]) { parts.push(field(text.encode(part))); }
    parts.push(value);
    const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) { all.set(p, at); at += p.length; }
    return hex(new Uint8Array(await crypto.subtle.digest("SHA-256", all)));
  }

  // The value pledged, kept from the pledge to the reveal (before the pledge is sent).
  function pledgeSlot(campaign, request, player) {
    return "tablelog:pledge:" + JSON.stringify([campaign, request, player]);
  }

  function keepPledged(campaign, request, player, value) {
    localStorage.setItem(pledgeSlot(campaign, request, player), hex(value));
  }

  function pledged(campaign, request, player) {
    return localStorage.getItem(pledgeSlot(campaign, request, player));
  }

  function forgetPledged(campaign, request, player) {
    localStorage.removeItem(pledgeSlot(campaign, request, player));
  }

  // Checkpoints: every one seen, once, in the order first seen.
  function checkpointsKey(campaign) { return "tablelog:checkpoints:" + campaign; }

  function keptCheckpoints(campaign) {
    try { return JSON.parse(localStorage.getItem(checkpointsKey(campaign)) || "[]") || []; } catch (e) { return []; }
  }

  function keepCheckpoints(campaign, checkpoints) {
    const lines = keptCheckpoints(campaign);
    let added = 0;
    for (const c of checkpoints) {
      const line = JSON.stringify({
        campaign: c.campaign, seq: c.seq, hash: c.hash, time: c.time, key: c.key, signature: c.signature,
      });
      if (!lines.includes(line)) { lines.push(line); added += 1; }
    }
    if (added) { localStorage.setItem(checkpointsKey(campaign), JSON.stringify(lines)); }
    return lines;
  }

  return {
    available, commitment, newSalt, hex, unhex, slot, keep, opening, forget,
    keptCheckpoints, keepCheckpoints, pledge, keepPledged, pledged, forgetPledged,
  };
})();
