// The admin page: trades the sign-in link's fragment for the admin session, shows the chosen
// ruleset's options, and copies a GM's link. The forms are plain posts and work without it.
"use strict";

(function () {
  const signIn = document.getElementById("admin-sign-in");
  if (signIn) { trade(document.getElementById("admin-sign-in-status")); return; }
  options();
  copying();

  // The link's token, out of the address bar (and the history) before anything else.
  function takeToken() {
    const token = new URLSearchParams(location.hash.slice(1)).get("token");
    if (token !== null) { history.replaceState(null, "", location.pathname); }
    return token;
  }

  async function trade(status) {
    const token = takeToken();
    if (!token) {
      if (!status.textContent.trim() || status.textContent.startsWith("Signing")) {
        status.textContent = "You are not signed in. Open the admin page's sign-in link.";
      }
      return;
    }
    const answer = await fetch("/admin/session", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token: token }),
    });
    if (answer.ok) { location.replace("/admin"); return; }
    status.textContent = await sentence(answer);
  }

  async function sentence(answer) {
    try {
      const body = await answer.json();
      if (body && body.code && body.message) { return body.code + ": " + body.message; }
    } catch (e) { /* not JSON */ }
    return "the service answered " + answer.status;
  }

  // Only the chosen ruleset's options show, and only they are sent (a disabled fieldset's
  // fields are not).
  function options() {
    const select = document.getElementById("ruleset");
    if (!select) { return; }
    const show = document.getElementById("show-options");
    if (show) { show.hidden = true; }
    const pick = () => {
      for (const set of document.querySelectorAll("fieldset[data-ruleset]")) {
        const on = set.dataset.ruleset === select.value;
        set.hidden = !on;
        set.disabled = !on;
      }
    };
    select.addEventListener("change", pick);
    pick();
  }

  function copying() {
    const button = document.getElementById("copy-link");
    const field = document.getElementById("gm-link");
    const status = document.getElementById("copy-status");
    if (!button || !field) { return; }
    button.hidden = false;
    button.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(field.value);
        status.textContent = "Copied.";
      } catch (e) {
        field.select();
        status.textContent = "Selected: copy it with your keyboard or menu.";
      }
    });
  }
})();
