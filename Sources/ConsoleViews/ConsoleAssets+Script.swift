extension ConsoleAssets {
    /// Times in the browser's zone, the live log over Server-Sent Events, and the send form's
    /// septet counter. Everything from the server is put in the page with `textContent`, never
    /// parsed as markup; the pages work without it but for live updates.
    static let script = #"""
        "use strict";
        (function () {
          function localTimes(root) {
            root.querySelectorAll("time[datetime]").forEach(function (node) {
              var date = new Date(node.getAttribute("datetime"));
              if (!isNaN(date.getTime())) { node.textContent = date.toLocaleString(); }
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
            var time = document.createElement("time");
            time.setAttribute("datetime", message.time);
            time.title = message.time.replace("T", " ").replace("Z", " UTC");
            time.textContent = new Date(message.time).toLocaleString();
            cell(tr, time);
            cell(tr, message.direction);
            cell(tr, message.contact || message.number || "unknown");
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
            text.appendChild(document.createTextNode(message.text || message.error || ""));
            return tr;
          }

          function liveLog(table) {
            if (!window.EventSource) { return; }
            var body = table.tBodies[0];
            var source = new EventSource(table.getAttribute("data-live"));
            source.addEventListener("message", function (event) {
              var message;
              try { message = JSON.parse(event.data); } catch (error) { return; }
              if (!message || typeof message.id !== "number" || !admits(message, filters())) { return; }
              var fresh = row(message);
              var old = document.getElementById(fresh.id);
              if (old) { old.replaceWith(fresh); } else { body.insertBefore(fresh, body.firstChild); }
              var empty = document.querySelector("p.none");
              if (empty) { empty.remove(); }
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
            document.querySelectorAll("table[data-live]").forEach(liveLog);
            document.querySelectorAll("textarea[data-counter]").forEach(septetCounter);
          });
        })();
        """#
}
