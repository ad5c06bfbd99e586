"""The web console in a real browser: headless Chromium, driven by selenium, against a running
`smsgw serve --sim` that the Swift test ConsoleBrowserTests started with three operators (chief,
an admin; ops, an operator; watch, a viewer) and a fourth (temp) to lock out.

Each check prints `ok NAME` or `FAILED NAME: sentence`; the exit status is 1 when any failed.
Screenshots of every page at 360 and 1280 CSS pixels go to ARTEFACTS.
"""

import http.server
import os
import sys
import threading
import time
import traceback

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from console_support import (
    DESKTOP, PASSWORD, URL, CheckFailed, banner, browser, enrol_totp, expect, fits, gateway_store, heading, inject,
    live_banner, mark_page, no_alert, open_page, page_kept, screenshot, session_cookie, sign_in, smsgw, submit, totp, wait)

PEER_DATA_DIR = os.environ["PEER_DATA_DIR"]
HOSTILE_SENDER = "<b>BANK</b>"
HOSTILE_MARKUP = '<script>window.pwned=1</script><img src=x onerror="window.pwned=2">'
HOSTILE_CONTROLS = "pay \u202eevil\u202c now\u0007\u001b[2J!"


class Checks:
    """The checks in the order they run; each starts from a signed-out browser."""

    def __init__(self, driver):
        self.driver = driver
        self.message_path = None

    def fresh(self):
        self.driver.delete_all_cookies()
        open_page(self.driver, "/login")

    def check_keyboard_sign_in(self):
        """An admin signs in with the keyboard alone: Tab to each field, Enter to submit."""
        driver = self.driver
        open_page(driver, "/login")
        keys = ActionChains(driver)
        for _ in range(6):
            keys.send_keys(Keys.TAB).perform()
            if driver.switch_to.active_element.get_attribute("name") == "name":
                break
        expect(driver.switch_to.active_element.get_attribute("name") == "name", "Tab does not reach the name field")
        keys.send_keys("chief", Keys.TAB, PASSWORD, Keys.ENTER).perform()
        wait("the log page after a keyboard sign-in", lambda: driver.find_elements(By.CSS_SELECTOR, "table.log"))
        expect(heading(driver) == "Log", f"signed in on {heading(driver)!r}, not the log")
        link = driver.find_element(By.CSS_SELECTOR, "nav a[href='/admin']")
        link.send_keys(Keys.ENTER)
        wait("the admin page by keyboard", lambda: heading(driver) == "Admin")

    def check_totp_sign_in(self):
        """An operator with two-factor login is asked for the code, and gets in with the one the
        test computes from the secret that `operator 2fa enable` printed."""
        secret = enrol_totp("ops")
        expect(sign_in(self.driver, "ops") == "Sign in", "ops got in without a code")
        expect("code" in banner(self.driver).lower(), f"no request for the code: {banner(self.driver)!r}")
        # The code of the step after the one enrolment used (each step's code is accepted once;
        # the verifier allows one step of clock drift).
        code = totp(secret, at=time.time() + 30)
        expect(sign_in(self.driver, "ops", code=code) == "Log", f"ops with its code: {banner(self.driver)!r}")
        self.ops_session = session_cookie(self.driver)

    def sign_in_ops(self):
        """Back into ops's session (a second sign-in would need the next code, 30 s later)."""
        expect(getattr(self, "ops_session", None), "ops never signed in")
        self.driver.add_cookie({"name": "smsgw_session", "value": self.ops_session, "path": "/"})
        open_page(self.driver, "/")
        expect(heading(self.driver) == "Log", f"ops's session opens {heading(self.driver)!r}")

    def check_live_log(self):
        """A message from bob, injected at the simulated network, appears at the top of the open
        log page without a reload. How long it took is printed, never asserted: a loaded machine
        may take seconds, so the check waits on the row with a generous deadline."""
        driver = self.driver
        self.sign_in_ops()
        text = "Live from the north gate."
        ciphertext = smsgw("encrypt", "alice", data_dir=PEER_DATA_DIR, stdin=text + "\n").strip()
        mark_page(driver)
        driver.execute_script(WATCH_ROWS)
        started = time.time() * 1000
        inject("+15550002", ciphertext)
        arrived = wait("bob's message in the open log", lambda: driver.execute_script(ARRIVAL, text), timeout=60)
        expect(page_kept(driver), "the log page reloaded to show the message")
        row = driver.find_element(By.CSS_SELECTOR, "table.log tbody tr")
        expect(text in row.text and "decrypted" in row.text, f"the newest row is not bob's message: {row.text!r}")
        expect("verified" in row.get_attribute("class").split(), "a decrypted row is not marked verified")
        latency = arrived - started
        print(f"  the message showed {latency:.0f} ms after the injection returned")

    def check_send_follows_states(self):
        """A text sent from the Send page: the counter counts, the message page follows it from
        queued to sent to delivered without a reload, and shows the same timeline on reload."""
        driver = self.driver
        self.sign_in_ops()
        open_page(driver, "/send")
        Select(driver.find_element(By.NAME, "contact")).select_by_value("bob")
        area = driver.find_element(By.NAME, "text")
        area.send_keys("Sent from the console {ok}")
        counter = driver.find_element(By.ID, "counter").text
        expect(counter.startswith("28 septets"), f"the counter counts {counter!r} for 26 characters with two extension ones")
        submit(driver, driver.find_element(By.CSS_SELECTOR, "form.send button"))
        wait("the message page", lambda: driver.find_elements(By.CSS_SELECTOR, "ol.timeline"))
        self.message_path = driver.current_url[len(URL):]
        mark_page(driver)

        def states():
            return [node.text for node in driver.find_elements(By.CSS_SELECTOR, "ol.timeline .state")]

        wait("queued, sent and delivered on the message page", lambda: states()[-1:] == ["delivered"], timeout=90)
        expect(states()[:1] == ["queued"] and "sent" in states(), f"the timeline reads {states()}")
        expect(page_kept(driver), "the message page reloaded to show the states")
        status = driver.find_element(By.CSS_SELECTOR, "dd.status").text
        expect(status.startswith("delivered"), f"the message's status reads {status!r}")
        driver.refresh()
        expect(states()[0] == "queued" and states()[-1] == "delivered", f"after a reload the timeline reads {states()}")

    def check_hostile_sms(self):
        """Markup, a script, controls and bidirectional overrides in a text and an alphanumeric
        sender show as text, in the live row and the rendered page alike, and nothing runs."""
        driver = self.driver
        self.sign_in_ops()
        mark_page(driver)
        inject(HOSTILE_SENDER, HOSTILE_MARKUP)
        inject(HOSTILE_SENDER, HOSTILE_CONTROLS)
        for source in ("live", "rendered"):
            rows = wait(f"both hostile texts in the {source} log", lambda: hostile_rows(driver), timeout=30)
            markup_row, controls_row = rows
            expect(HOSTILE_MARKUP in markup_row.text, f"{source}: the markup is not shown as text: {markup_row.text!r}")
            expect(HOSTILE_SENDER in markup_row.text, f"{source}: the sender is not shown as text: {markup_row.text!r}")
            controls = controls_row.get_attribute("textContent")
            expect("[U+202E]" in controls and "[U+0007]" in controls and "[U+001B]" in controls,
                   f"{source}: the controls are not shown as codes: {controls!r}")
            expect(not any(c in controls for c in "\u202e\u202c\u0007\u001b"), f"{source}: a raw control is in the page")
            expect("untrusted" in markup_row.get_attribute("class").split(), f"{source}: a plain SMS is not marked")
            elements = driver.execute_script(
                "return document.querySelectorAll('table.log tbody img, table.log tbody script, table.log tbody b').length")
            expect(elements == 0, f"{source}: the SMS made {elements} elements")
            expect(driver.execute_script("return window.pwned") is None, f"{source}: the SMS's script ran")
            expect(no_alert(driver), f"{source}: an alert opened")
            if source == "live":
                expect(page_kept(driver), "the log reloaded")
                driver.refresh()
        submit(driver, markup_row.find_element(By.CSS_SELECTOR, "a"))
        expect(heading(driver).startswith("Message"), f"the hostile row's link opens {heading(driver)!r}")
        expect(HOSTILE_MARKUP in driver.find_element(By.CSS_SELECTOR, "dd.text").text, "the message page loses the text")
        expect(driver.execute_script("return window.pwned") is None and no_alert(driver), "the message page ran the SMS")

    def check_viewer(self):
        """A viewer sees no send form or link, is refused the Send page, and its forged POST, with
        its own valid session and CSRF token, gets 403 and sends nothing."""
        driver = self.driver
        expect(sign_in(driver, "watch") == "Log", f"watch could not sign in: {banner(driver)!r}")
        links = [node.get_attribute("href") for node in driver.find_elements(By.CSS_SELECTOR, "nav a")]
        expect(not any(link.endswith(("/send", "/admin")) for link in links), f"a viewer is offered {links}")
        expect(not driver.find_elements(By.CSS_SELECTOR, "form.send, textarea"), "a viewer's log page has a send form")
        open_page(driver, "/send")
        expect(heading(driver) == "Not allowed", f"a viewer's /send is {heading(driver)!r}")
        open_page(driver, "/")
        status = driver.execute_async_script(FORGED_POST, "Forged by a viewer.")
        expect(status == 403, f"a viewer's forged send got {status}, not 403")
        open_page(driver, "/")
        expect("Forged by a viewer." not in driver.page_source, "the viewer's forged text was queued")
        self.fresh()
        sign_in(driver, "chief")
        open_page(driver, "/admin")
        audit = driver.find_element(By.CSS_SELECTOR, "table.audit").text
        expect(any("watch" in line and "send" in line and "refused" in line for line in audit.splitlines()),
               f"the refusal is not in the audit list: {audit[:300]!r}")

    def check_admin_tokens(self):
        """An admin makes an API token on the admin page (shown once, then only its name) and
        revokes it; both are in the audit list."""
        driver = self.driver
        sign_in(driver, "chief")
        open_page(driver, "/admin")
        form = driver.find_element(By.CSS_SELECTOR, "form[action='/admin/tokens']")
        form.find_element(By.NAME, "name").send_keys("dispatch")
        form.find_element(By.NAME, "scope-send").click()
        submit(driver, form.find_element(By.TAG_NAME, "button"))
        wait("the new token", lambda: driver.find_elements(By.CSS_SELECTOR, "code.secret"))
        token = driver.find_element(By.CSS_SELECTOR, "code.secret").text
        expect(token.startswith("smsgw_") and len(token) == 49, f"the token shown is {token!r}")
        open_page(driver, "/admin")
        expect(token not in driver.page_source and "dispatch" in driver.page_source, "the token is shown again, or not listed")
        submit(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/admin/tokens/dispatch/revoke'] button"))
        expect(heading(driver) == "Admin", f"revoking answers {heading(driver)!r}")
        expect(not driver.find_elements(By.CSS_SELECTOR, "form[action='/admin/tokens/dispatch/revoke']"), "the token is still listed")
        audit = driver.find_element(By.CSS_SELECTOR, "table.audit").text
        expect("token-created" in audit and "token-revoked" in audit, f"the audit list: {audit[:300]!r}")

    def check_cross_origin(self):
        """A form on another origin (same host, another port) that posts to the console with the
        operator's session cookie and even its CSRF token is refused."""
        driver = self.driver
        self.sign_in_ops()
        token = driver.find_element(By.NAME, "csrf").get_attribute("value")
        page = ATTACK_PAGE.format(action=URL + "/send", token=token).encode()

        class Attacker(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.end_headers()
                self.wfile.write(page)

            def log_message(self, *arguments):
                pass

        server = http.server.HTTPServer(("127.0.0.1", 0), Attacker)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            driver.get(f"http://127.0.0.1:{server.server_port}/")
            submit(driver, driver.find_element(By.TAG_NAME, "button"))
            expect(driver.current_url.startswith(URL), f"the form went to {driver.current_url}")
            expect(heading(driver) == "Refused" and "another site" in banner(driver),
                   f"a cross-origin POST got {heading(driver)!r}: {banner(driver)!r}")
        finally:
            server.shutdown()
        open_page(driver, "/")
        expect("Forged across origins." not in driver.page_source, "the cross-origin text was queued")

    def check_pages(self):
        """Every page at 360 and 1280 px without sideways scrolling, saved as screenshots; local
        times with the UTC time on hover; the log page under 100 KB."""
        driver = self.driver
        screenshot(driver, "login")
        sign_in(driver, "chief")
        open_page(driver, "/")
        weight = driver.execute_script(PAGE_WEIGHT)
        print(f"  the log page weighs {weight} bytes with its stylesheet and script")
        expect(weight < 100_000, f"the log page weighs {weight} bytes")
        time_node = driver.find_element(By.CSS_SELECTOR, "table.log time")
        title = time_node.get_attribute("title")
        expect(title.endswith(" UTC") and time_node.text not in title, f"time {time_node.text!r} with title {title!r}")
        for name, path in [("log", "/"), ("message", self.message_path or "/"), ("status", "/status"),
                           ("contacts", "/contacts"), ("send", "/send"), ("admin", "/admin")]:
            open_page(driver, path)
            screenshot(driver, name)
        expect(fits(driver, DESKTOP), "the admin page scrolls sideways on a desktop")

    def check_live_banners(self):
        """The status page, left open: a store refusing writes (a received SMS it cannot take) and
        a contact whose keys were restored get their banners without a reload, and lose them once
        the store takes writes again and the keys are no longer restored."""
        driver = self.driver
        expect(sign_in(driver, "chief") == "Log", f"chief signed in on {heading(driver)!r}")
        open_page(driver, "/status")
        mark_page(driver)
        expect(not live_banner(driver, "store") and not live_banner(driver, "contact:bob"), "banners before any condition")
        with gateway_store() as db:
            # SQLite itself fails the daemon's insert as full (SQLITE_FULL): the trigger inserts
            # into a table whose AUTOINCREMENT key is used up.
            db.execute("CREATE TABLE refusal_full (id INTEGER PRIMARY KEY AUTOINCREMENT)")
            db.execute("INSERT INTO refusal_full (id) VALUES (9223372036854775807)")
            db.execute("CREATE TRIGGER refused BEFORE INSERT ON received_pdus "
                       "BEGIN INSERT INTO refusal_full (id) VALUES (NULL); END")
            db.execute("UPDATE contacts SET keys_restored_at = strftime('%s', 'now') WHERE name = 'bob'")
        inject("+15550033", "Kept on the modem while the store is full.")
        text = wait("the store's banner", lambda: live_banner(driver, "store"), timeout=60)
        expect(text.startswith("The store refuses writes since"), f"the store's banner says {text!r}")
        text = wait("bob's banner", lambda: live_banner(driver, "contact:bob"), timeout=60)
        expect("keys were restored from a backup" in text, f"bob's banner says {text!r}")
        with gateway_store() as db:
            db.execute("DROP TRIGGER refused")
            db.execute("DROP TABLE refusal_full")
            db.execute("UPDATE contacts SET keys_restored_at = NULL WHERE name = 'bob'")
        wait("the store's banner to go", lambda: live_banner(driver, "store") is None, timeout=90)
        wait("bob's banner to go", lambda: live_banner(driver, "contact:bob") is None, timeout=60)
        expect(page_kept(driver), "the status page reloaded")

    def check_logout(self):
        """Sign-out ends the session: the back button and the old cookie both get the sign-in page."""
        driver = self.driver
        sign_in(driver, "watch")
        open_page(driver, "/status")
        old = session_cookie(driver)
        submit(driver, driver.find_element(By.CSS_SELECTOR, "form.signout button"))
        expect(heading(driver) == "Sign in", f"sign-out answers {heading(driver)!r}")
        expect(session_cookie(driver) is None, "the session cookie is still set")
        driver.execute_script("window.smsgwOldPage = true;")
        driver.back()
        wait("the page going back shows", lambda: driver.execute_script(
            "return window.smsgwOldPage !== true && document.readyState === 'complete'"))
        expect(heading(driver) == "Sign in", f"back after sign-out shows {heading(driver)!r}")
        driver.add_cookie({"name": "smsgw_session", "value": old, "path": "/"})
        open_page(driver, "/status")
        expect(heading(driver) == "Sign in", f"the old cookie still opens {heading(driver)!r}")

    def check_live_log_ends(self):
        """A log page whose session ends elsewhere (a new password) gets no more messages and says
        that its live updates stopped."""
        driver = self.driver
        expect(sign_in(driver, "watch") == "Log", f"watch signed in on {heading(driver)!r}")
        mark_page(driver)
        smsgw("operator", "passwd", "watch", stdin=PASSWORD + "\n")
        inject("+15550077", "After the session ended.")
        wait("the page to say its live updates stopped",
             lambda: driver.find_elements(By.CSS_SELECTOR, "p.banner.live-ended"), timeout=60)
        expect(page_kept(driver), "the log page reloaded")
        rows = driver.find_elements(By.CSS_SELECTOR, "table.log tbody tr")
        expect(not any("After the session ended." in row.text for row in rows), "an ended session's page showed a new message")

    def check_lockout(self):
        """Three wrong passwords lock the operator: then even the right one is refused."""
        driver = self.driver
        for attempt in range(3):
            expect(sign_in(driver, "temp", password=f"wrong password {attempt}") == "Sign in", "a wrong password got in")
            expect("wrong" in banner(driver), f"attempt {attempt + 1}: {banner(driver)!r}")
        expect(sign_in(driver, "temp") == "Sign in", "a locked operator got in with the right password")
        expect("locked" in banner(driver), f"after three failures the right password says {banner(driver)!r}")


def hostile_rows(driver):
    """The log's rows of the two hostile texts, or None until both are there."""
    rows = driver.find_elements(By.CSS_SELECTOR, "table.log tbody tr")
    markup = [row for row in rows if "window.pwned" in row.text]
    controls = [row for row in rows if "evil" in row.get_attribute("textContent")]
    return (markup[0], controls[0]) if markup and controls else None


# Records, in the page, when each row arrives (a MutationObserver: exact, not polled).
WATCH_ROWS = """
window.smsgwArrivals = [];
new MutationObserver(function () {
  document.querySelectorAll('table.log tbody tr').forEach(function (row) {
    if (!row.smsgwSeen) { row.smsgwSeen = true; window.smsgwArrivals.push([row.textContent, Date.now()]); }
  });
}).observe(document.querySelector('table.log tbody'), {childList: true});
"""
ARRIVAL = """
var needle = arguments[0];
var found = window.smsgwArrivals.filter(function (entry) { return entry[0].indexOf(needle) >= 0; });
return found.length ? found[0][1] : null;
"""
# A same-origin POST from the viewer's own page, with its own session and CSRF token.
FORGED_POST = """
var done = arguments[arguments.length - 1];
var body = new URLSearchParams({contact: 'bob', text: arguments[0], csrf: document.querySelector('input[name=csrf]').value});
fetch('/send', {method: 'POST', body: body, credentials: 'same-origin', redirect: 'manual'})
  .then(function (answer) { done(answer.status); }, function (error) { done(String(error)); });
"""
PAGE_WEIGHT = """
var entries = performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'));
return entries.reduce(function (sum, entry) { return sum + entry.decodedBodySize; }, 0);
"""
ATTACK_PAGE = """<!doctype html><title>Win a prize</title>
<form method="post" action="{action}"><input type="hidden" name="contact" value="bob">
<input type="hidden" name="text" value="Forged across origins."><input type="hidden" name="csrf" value="{token}">
<button>Claim</button></form>"""


def main():
    driver = browser()
    checks = Checks(driver)
    names = ["keyboard_sign_in", "totp_sign_in", "live_log", "send_follows_states", "hostile_sms", "viewer",
             "admin_tokens", "cross_origin", "pages", "live_banners", "logout", "live_log_ends", "lockout"]
    failures = 0
    try:
        for name in names:
            checks.fresh()
            try:
                getattr(checks, "check_" + name)()
                print(f"ok {name}", flush=True)
            except CheckFailed as failure:
                failures += 1
                print(f"FAILED {name}: {failure}", flush=True)
            except Exception:
                failures += 1
                print(f"FAILED {name}: {traceback.format_exc()}", flush=True)
    finally:
        driver.quit()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
