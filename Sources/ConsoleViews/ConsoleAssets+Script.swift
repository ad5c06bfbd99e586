extension ConsoleAssets {
    /// Times in the browser's zone, the live log, a message's live timeline and the modems'
    /// banners over Server-Sent Events, the other banners kept current from `/banners`, and the
    /// send form's septet counter. Everything from the server is put in the page
    /// with `textContent`, never parsed as markup, and with controls and bidirectional overrides
    /// shown as codes as ``HTML/escape(_:)`` shows them; the pages work without it but for live
    /// updates.
    static let script = #"""
        "use strict";
        (function () {
          function localTimes(root) {
            root.querySelectorAll("time[datetime]").forEach(function (node) {
              var date = new Date(node.getAttribute("datetime"));
              if (!isNaN(date.getTime())) { node.textContent = date.toLocaleString(); }
            });
          }

          // As HTML.escape on the server: C0 and C1 controls but tab and line feed, DEL, and the
          // bidirectional overrides, embeddings and isolates become visible codes.
          var hidden = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069]/g;

          function visible(text) {
            return String(text).replace(hidden, function (character) {
              return "[U+" + character.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0") + "]";
            });
          }

          function timeNode(iso, date) {
            var node = document.createElement("time");
            node.setAttribute("datetime", iso);
            node.title = iso.replace("T", " ").replace(/(\.\d+)?Z$/, " UTC");
            node.textContent = date.toLocaleString();
            return node;
          }

          // A stream the browser gave up on (the session ended, the daemon is gone) is said on the
          // page, so a log that stopped moving is not taken for a quiet one.
          function stopped() {
            var main = document.querySelector("main");
            if (!main || document.querySelector("p.banner.live-ended")) { return; }
            var note = document.createElement("p");
            note.className = "banner problem live-ended";
            note.setAttribute("role", "alert");
            note.textContent = "Live updates stopped (signed out, or the daemon is not answering); reload the page.";
            main.insertBefore(note, main.firstChild);
          }

          // A modem that goes down gets the banner the server draws on load (same words); it goes
          // when the modem is up again.
          function modemBanner(event, down) {
            var journal;
            try { journal = JSON.parse(event.data); } catch (error) { return; }
            var modem = journal && journal.data && journal.data.modem;
            var main = document.querySelector("main");
            if (!modem || typeof modem.name !== "string" || !main) { return; }
            main.querySelectorAll("p.banner[data-modem]").forEach(function (node) {
              if (node.getAttribute("data-modem") === modem.name) { node.remove(); }
            });
            if (!down) { return; }
            var note = document.createElement("p");
            note.className = "banner problem";
            note.setAttribute("data-modem", modem.name);
            note.setAttribute("role", "alert");
            note.textContent = visible("Modem " + modem.name + " is " + modem.state + (modem.error ? ": " + modem.error : "."));
            main.insertBefore(note, main.firstChild);
          }

          // The log and status pages: the banners about the daemon, the store, the nodes and the
          // contacts come and go as the server lists them, asked every few seconds (a store that
          // refuses writes cannot record an event saying so) and after each change to the log.
          var bannersAsked = null;

          function liveBanners(main) {
            var url = main.getAttribute("data-banners");
            function apply(list) {
              var wanted = new Map();
              list.forEach(function (item) {
                if (item && typeof item.key === "string" && typeof item.text === "string") { wanted.set(item.key, item); }
              });
              main.querySelectorAll("p.banner[data-banner]").forEach(function (node) {
                var item = wanted.get(node.getAttribute("data-banner"));
                if (!item) { node.remove(); return; }
                if (node.textContent !== visible(item.text)) { node.textContent = visible(item.text); }
                wanted.delete(item.key);
              });
              var heading = main.querySelector("h1");
              wanted.forEach(function (item) {
                var note = document.createElement("p");
                var notice = item.kind === "notice";
                note.className = "banner " + (notice ? "notice" : "problem");
                note.setAttribute("data-banner", item.key);
                note.setAttribute("role", notice ? "status" : "alert");
                note.textContent = visible(item.text);
                main.insertBefore(note, heading);
              });
            }
            bannersAsked = function () {
              fetch(url, { credentials: "same-origin", cache: "no-store", redirect: "error" })
                .then(function (answer) { return answer.ok ? answer.json() : null; })
                .then(function (list) { if (Array.isArray(list)) { apply(list); } }, function () {});
            };
            window.setInterval(bannersAsked, 3000);
          }

          function follow(url, handle) {
            if (!window.EventSource) { return; }
            var source = new EventSource(url);
            source.addEventListener("modem.down", function (event) { modemBanner(event, true); });
            source.addEventListener("modem.up", function (event) { modemBanner(event, false); });
            source.addEventListener("message", function (event) {
              var message;
              try { message = JSON.parse(event.data); } catch (error) { return; }
              if (message && typeof message.id === "number") { handle(message); }
              if (bannersAsked) { bannersAsked(); }
            });
            source.addEventListener("error", function () {
              if (source.readyState === EventSource.CLOSED) { stopped(); }
            });
          }

          function cell(row, text, className) {
            var td = document.createElement("td");
            if (className) { td.className = className; }
            if (text instanceof Node) { td.appendChild(text); } else { td.textContent = text; }
            row.appendChild(td);
            return td;
          }

          var untrusted = { rejected: true, unreadable: true, plain: true, duplicate: true };

          function filters() {
            var form = document.querySelector("form.filters");
            if (!form) { return {}; }
            var data = new FormData(form);
            return { contact: (data.get("contact") || "").toLowerCase(), direction: data.get("direction") || "",
                     status: data.get("status") || "", q: (data.get("q") || "").toLowerCase() };
          }

          function admits(message, f) {
            if (f.contact && (message.contact || "").toLowerCase() !== f.contact) { return false; }
            if (f.direction && message.direction !== f.direction) { return false; }
            if (f.status && message.status !== f.status) { return false; }
            if (f.q) {
              var text = (message.text || "").toLowerCase();
              return f.q.split(" ").filter(Boolean).every(function (word) { return text.indexOf(word) >= 0; });
            }
            return true;
          }

          function row(message) {
            var tr = document.createElement("tr");
            var bad = untrusted[message.status] === true;
            tr.id = "m" + message.id;
            tr.className = (bad ? "untrusted " : "verified ") + message.direction + " new";
            tr.setAttribute("data-status", message.status);
            cell(tr, timeNode(message.time, new Date(message.time)));
            cell(tr, message.direction);
            cell(tr, visible(message.contact || message.number || "unknown"));
            var link = document.createElement("a");
            link.href = "/log/" + encodeURIComponent(String(message.id));
            link.textContent = message.status;
            cell(tr, link);
            var text = cell(tr, "", "text");
            if (bad) {
              var flag = document.createElement("span");
              flag.className = "flag";
              flag.textContent = "not verified";
              text.appendChild(flag);
              text.appendChild(document.createTextNode(" "));
            }
            text.appendChild(document.createTextNode(visible(message.text || message.error || "")));
            return tr;
          }

          function liveLog(table) {
            var body = table.tBodies[0];
            follow(table.getAttribute("data-live"), function (message) {
              if (!admits(message, filters())) { return; }
              var fresh = row(message);
              var old = document.getElementById(fresh.id);
              if (old) { old.replaceWith(fresh); } else { body.insertBefore(fresh, body.firstChild); }
              var empty = document.querySelector("p.none");
              if (empty) { empty.remove(); }
            });
          }

          // A message's page: each state it takes is added to its timeline as it happens (the
          // time the browser heard of it; the page shows the stored times when reloaded).
          function liveTimeline(list) {
            var id = Number(list.getAttribute("data-message"));
            var status = document.querySelector("dd.status");
            follow(list.getAttribute("data-live"), function (message) {
              if (message.id !== id) { return; }
              var states = list.querySelectorAll(".state");
              var last = states.length ? states[states.length - 1].textContent : "";
              if (message.status === last) { return; }
              var item = document.createElement("li");
              var state = document.createElement("span");
              state.className = "state";
              state.textContent = visible(message.status);
              item.appendChild(state);
              item.appendChild(document.createTextNode(" "));
              var now = new Date();
              item.appendChild(timeNode(now.toISOString(), now));
              list.appendChild(item);
              if (status) { status.textContent = visible(message.status); }
              // The outbox state shown on load (queued, submitting) is over once a state follows.
              document.querySelectorAll(".outbox").forEach(function (node) { node.remove(); });
            });
          }

          function numbers(attribute) {
            return (attribute || "").split(",").filter(Boolean).map(Number);
          }

          function septetCounter(area) {
            var output = document.getElementById(area.getAttribute("data-counter"));
            var costs = new Map();
            numbers(area.getAttribute("data-basic")).forEach(function (code) { costs.set(code, 1); });
            numbers(area.getAttribute("data-extension")).forEach(function (code) { costs.set(code, 2); });
            var capacity = Number(area.getAttribute("data-capacity"));
            var segment = Number(area.getAttribute("data-segment"));
            var maxParts = Number(area.getAttribute("data-max-parts"));
            var select = area.form.querySelector("select[name=contact]");

            function count() {
              var septets = 0, parts = 1, inPart = 0, offences = [], position = 0;
              for (var character of area.value) {
                position += 1;
                var cost = costs.get(character.codePointAt(0));
                if (cost === undefined) { offences.push(character + " at " + position); continue; }
                septets += cost;
                if (inPart + cost > segment) { parts += 1; inPart = 0; }
                inPart += cost;
              }
              var messages = septets <= capacity ? 1 : parts;
              var chosen = select && select.selectedOptions[0];
              var protocol = chosen ? Number(chosen.getAttribute("data-protocol")) : 2;
              var limit = protocol >= 2 ? maxParts : 1;
              var over = offences.length > 0 || messages > limit;
              var text = septets + " septets · " + messages + " SMS (at most " + (limit === 1 ? capacity + " septets" : limit + " SMS") + ")";
              if (offences.length > 0) { text += " · not in the GSM alphabet: " + offences.slice(0, 5).join(", "); }
              else if (messages > limit) { text += " · too long" + (protocol < 2 ? " for this contact's protocol version 1" : ""); }
              output.textContent = text;
              output.classList.toggle("over", over);
            }
            area.addEventListener("input", count);
            if (select) { select.addEventListener("change", count); }
            count();
          }

          document.addEventListener("DOMContentLoaded", function () {
            localTimes(document);
            document.querySelectorAll("main[data-banners]").forEach(liveBanners);
            document.querySelectorAll("table[data-live]").forEach(liveLog);
            document.querySelectorAll("ol.timeline[data-live]").forEach(liveTimeline);
            // The status page: only the modems' banners follow; the cards show the state at load.
            document.querySelectorAll("section.modems[data-live]").forEach(function (section) {
              follow(section.getAttribute("data-live"), function () {});
            });
            document.querySelectorAll("textarea[data-counter]").forEach(septetCounter);
          });
        })();
        """#
}
