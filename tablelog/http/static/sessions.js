// The page's "Your sessions" list: this seat's web sessions (the GM's page: every one of the
// campaign), each with a button that ends it. The service decides who sees and ends what;
// an id names a session and is no secret.
"use strict";

const tablelogSessions = (function () {
  function when(us) {
    // To the minute (a use is recorded at most once a minute), short enough that the
    // list fits a 360-px phone with its buttons.
    return new Date(us / 1000).toLocaleString(undefined, { dateStyle: "short", timeStyle: "short" });
  }

  function start(options) {
    const { base, headers, sentence, ended, gm } = options;
    const body = document.querySelector("#session-list tbody");
    const status = document.getElementById("sessions-status");
    if (!body || !status) { return { refresh() {} }; }

    function row(session) {
      const tr = document.createElement("tr");
      tr.dataset.session = session.id;
      const id = document.createElement("td");
      const code = document.createElement("code");
      code.textContent = session.id;
      id.append(code);
      if (session.current) { id.append(" (this browser)"); }
      const cells = [id];
      if (gm) {
        const who = document.createElement("td");
        who.textContent = session.player + (session.role === "player" ? "" : " (" + session.role + ")");
        cells.push(who);
      }
      for (const us of [session.created_at, session.last_used_at]) {
        const td = document.createElement("td");
        td.textContent = when(us);
        cells.push(td);
      }
      const action = document.createElement("td");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "quiet";
      button.dataset.endSession = session.id;
      button.textContent = session.current ? "End (sign out here)" : "End";
      button.setAttribute("aria-label", "End session " + session.id + (session.current ? ", this browser's" : ""));
      action.append(button);
      cells.push(action);
      // Under 600 px the list is a card per session, each cell under its column's name
      // (page.css, as the table's grids): the names are the header's, shown only there.
      const heads = [...document.querySelectorAll("#session-list thead th")].map((th) => th.textContent.trim());
      cells.forEach((cell, i) => {
        if (!heads[i] || cell === action) { return; }
        const label = document.createElement("span");
        label.className = "cell-label";
        label.setAttribute("aria-hidden", "true");
        label.textContent = heads[i];
        cell.prepend(label, " ");
      });
      tr.append(...cells);
      return tr;
    }

    async function refresh() {
      const answer = await fetch(base + "/web-sessions", { credentials: "same-origin" });
      if (!answer.ok) { status.textContent = "Could not read the sessions: " + await sentence(answer); return; }
      const sessions = await answer.json();
      body.replaceChildren(...sessions.map(row));
      status.textContent = sessions.length === 1 ? "1 session." : sessions.length + " sessions.";
    }

    body.addEventListener("click", async (event) => {
      const button = event.target.closest("button[data-end-session]");
      if (!button) { return; }
      button.disabled = true;
      const id = button.dataset.endSession;
      const answer = await fetch(base + "/web-sessions/" + encodeURIComponent(id), {
        method: "DELETE", credentials: "same-origin", headers: headers(),
      });
      if (!answer.ok) {
        button.disabled = false;
        status.textContent = "Could not end session " + id + ": " + await sentence(answer);
        return;
      }
      const done = await answer.json();
      if (done.ended.some((s) => s.current)) {
        body.replaceChildren();
        status.textContent = "Session " + id + " ended: this browser is signed out.";
        ended("Signed out: you ended this browser's session. Open a new sign-in link to come back.");
        return;
      }
      await refresh();
      status.textContent = "Session " + id + " ended. " + status.textContent;
    });

    refresh();
    return { refresh };
  }

  return { start };
})();
