// The page's "Notices" box: the viewer links their own Discord id and sets their own e-mail
// address, through the same contact routes as `tablelog player discord|email` (the page's
// session cookie and CSRF header sign each post). The service decides and refuses; the box
// is then read again as the server renders it, which shows only a hint of the address: the
// answer of a post (which holds the address) is not kept.
"use strict";

const tablelogNotices = (function () {
  const DONE = {
    discord: ["Discord id linked: the table mentions you in its Discord channel when it waits on you.", "Discord id unlinked."],
    email: ["Address set: a mail comes when the table waits on you.", "Address cleared: no more mail."],
  };

  function start(options) {
    const { base, headers, sentence } = options;
    const section = document.getElementById("notices");
    const box = document.getElementById("notices-box");
    const status = document.getElementById("notices-status");
    if (!section || !box || !status) { return { refresh() {} }; }
    const seat = section.dataset.seat;

    async function refresh() {
      const answer = await fetch(base + "/play/notices", { credentials: "same-origin" });
      if (!answer.ok) { status.textContent = "Could not read your contact: " + await sentence(answer); return; }
      const focused = document.activeElement && box.contains(document.activeElement) ? document.activeElement.id : null;
      box.innerHTML = await answer.text();
      const again = focused && document.getElementById(focused);
      // A button that went away (Unlink, once unlinked) leaves the focus on its form's field.
      if (focused) { (again || box.querySelector("form.contact input") || status).focus(); }
    }

    // `value` null clears; anything else is sent as typed (the service checks it).
    async function send(form, value) {
      const channel = form.dataset.channel;
      const error = form.querySelector(".error");
      const buttons = [...form.querySelectorAll("button")];
      error.hidden = true;
      status.textContent = "";
      buttons.forEach((b) => { b.disabled = true; });
      try {
        const body = channel === "discord" ? { user_id: value } : { address: value };
        const answer = await fetch(base + "/players/" + encodeURIComponent(seat) + "/" + channel, {
          method: "POST", credentials: "same-origin", headers: headers(), body: JSON.stringify(body),
        });
        if (!answer.ok) {
          error.textContent = await sentence(answer);
          error.hidden = false;
          error.focus();
          return;
        }
        await refresh();
        status.textContent = DONE[channel][value === null ? 1 : 0];
      } finally {
        buttons.forEach((b) => { if (b.isConnected) { b.disabled = false; } });
      }
    }

    box.addEventListener("submit", (event) => {
      const form = event.target.closest("form.contact");
      if (!form) { return; }
      event.preventDefault();
      send(form, form.querySelector("input[name]").value);
    });
    box.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-clear]");
      if (!button) { return; }
      send(button.closest("form.contact"), null);
    });
    return { refresh };
  }

  return { start };
})();
