"""What the console's browser checks share: a headless Chromium driven by selenium, signing in,
the smsgw command line, TOTP codes, waiting on conditions, and screenshots at two widths.

Everything the checks need comes from the environment the Swift test (ConsoleBrowserTests) sets:
CONSOLE_URL, SMSGW (the binary), SMSGW_DATA_DIR and SMSGW_PASSPHRASE (the gateway's data
directory), SIM_DIR (its simulated network), ARTEFACTS (where screenshots go) and
OPERATOR_PASSWORD.
"""

import base64
import contextlib
import hashlib
import hmac
import os
import shutil
import sqlite3
import struct
import subprocess
import time

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

URL = os.environ["CONSOLE_URL"].rstrip("/")
SMSGW = os.environ["SMSGW"]
SIM_DIR = os.environ["SIM_DIR"]
ARTEFACTS = os.environ["ARTEFACTS"]
PASSWORD = os.environ["OPERATOR_PASSWORD"]

PHONE = 360
DESKTOP = 1280


class CheckFailed(Exception):
    """A check that did not hold: its sentence says what was expected and what was seen."""


def expect(condition, sentence):
    """Raises CheckFailed with `sentence` unless `condition` holds."""
    if not condition:
        raise CheckFailed(sentence)


def wait(what, condition, timeout=30.0, step=0.05):
    """Waits until `condition()` is truthy and returns it; fails naming `what` after `timeout` s."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = condition()
        except WebDriverException:
            value = None  # the page changed under the condition: ask again
        if value:
            return value
        if time.monotonic() > deadline:
            raise CheckFailed(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(step)


def executable(name):
    """The path of a program on PATH or in /usr/bin, or None."""
    return shutil.which(name) or (f"/usr/bin/{name}" if os.access(f"/usr/bin/{name}", os.X_OK) else None)


def browser(width=DESKTOP, zone="Pacific/Auckland"):
    """A headless Chromium (no sandbox as root, as in a CI container) at `width` CSS pixels,
    whose local time zone is not UTC, so local times and their UTC titles differ."""
    options = webdriver.ChromeOptions()
    options.binary_location = executable("chromium")
    for argument in ["--headless=new", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1280,900"]:
        options.add_argument(argument)
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")
    driver = webdriver.Chrome(service=Service(executable("chromedriver")), options=options)
    driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": zone})
    resize(driver, width)
    return driver


def resize(driver, width, height=900):
    """Lays pages out `width` CSS pixels wide (a phone at 360) whatever the window's least size."""
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
    )


def open_page(driver, path):
    """Opens `path` of the console and waits until its document and script have run."""
    driver.get(URL + path)
    wait(f"{path} to load", lambda: driver.execute_script("return document.readyState") == "complete")


def submit(driver, button):
    """Clicks a form's button and waits for the page that answers (a new document, loaded)."""
    driver.execute_script("window.smsgwOldPage = true;")
    button.click()
    wait("the answer to the form", lambda: driver.execute_script(
        "return window.smsgwOldPage !== true && document.readyState === 'complete'"))
    wait("the answer's heading", lambda: driver.find_elements(By.TAG_NAME, "h1"))


def heading(driver):
    return driver.find_element(By.TAG_NAME, "h1").text


def banner(driver):
    """The text of the page's banners (problems and notices), joined."""
    return " ".join(node.text for node in driver.find_elements(By.CSS_SELECTOR, "p.banner"))


def sign_in(driver, name, password=PASSWORD, code=None):
    """Fills the sign-in form as a person would and submits it; returns the page's heading."""
    open_page(driver, "/login")
    driver.find_element(By.NAME, "name").send_keys(name)
    driver.find_element(By.NAME, "password").send_keys(password)
    if code is not None:
        driver.find_element(By.NAME, "code").send_keys(code)
    submit(driver, driver.find_element(By.CSS_SELECTOR, "form.login button"))
    return heading(driver)


def session_cookie(driver):
    cookie = driver.get_cookie("smsgw_session")
    return cookie["value"] if cookie else None


def mark_page(driver):
    """Sets a global on the page: still there later means the page was not reloaded."""
    driver.execute_script("window.smsgwCheckMark = 'kept';")


def page_kept(driver):
    return driver.execute_script("return window.smsgwCheckMark === 'kept';")


def no_alert(driver):
    """Whether no alert dialog is open."""
    try:
        driver.switch_to.alert
        return False
    except NoAlertPresentException:
        return True


def fits(driver, width):
    """Whether the page needs no sideways scrolling at `width` CSS pixels."""
    return driver.execute_script("return document.documentElement.scrollWidth") <= width


def screenshot(driver, name):
    """Saves the page at phone and desktop widths as NAME-360.png and NAME-1280.png, as tall as
    the page up to 1600 pixels (small enough to keep in docs/screenshots); the page must need no
    sideways scrolling at either."""
    for width in (PHONE, DESKTOP):
        resize(driver, width)
        height = driver.execute_script("return Math.max(document.documentElement.scrollHeight, 300)")
        resize(driver, width, min(height, 1600))
        expect(fits(driver, width), f"the {name} page scrolls sideways at {width} px")
        driver.save_screenshot(os.path.join(ARTEFACTS, f"{name}-{width}.png"))
    resize(driver, DESKTOP)


def smsgw(*arguments, data_dir=None, stdin=""):
    """Runs the smsgw command line as the gateway's user; returns its stdout, fails on an error."""
    environment = dict(os.environ)
    if data_dir:
        environment["SMSGW_DATA_DIR"] = data_dir
    result = subprocess.run([SMSGW, *arguments], input=stdin, capture_output=True, text=True, env=environment, timeout=120)
    expect(result.returncode == 0, f"smsgw {' '.join(arguments[:3])} exited {result.returncode}: {result.stderr.strip()}")
    return result.stdout


def inject(sender, text, to="+15550001"):
    """An SMS from `sender` arrives at the gateway's simulated modem."""
    answer = smsgw("sim", "ctl", "--dir", SIM_DIR, "inject", sender, to, text)
    expect(answer.startswith("OK"), f"the simulator refused the injection: {answer.strip()}")


def totp(secret, at=None, digits=6, period=30):
    """The RFC 6238 code (SHA-1) of a Base32 secret, computed here from the secret alone."""
    key = base64.b32decode(secret.upper() + "=" * (-len(secret) % 8))
    counter = int((time.time() if at is None else at) // period)
    digest = hmac.new(key, struct.pack(">Q", counter), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    number = struct.unpack(">I", digest[offset:offset + 4])[0] & 0x7FFFFFFF
    return str(number % 10**digits).zfill(digits)


def enrol_totp(name):
    """`smsgw operator 2fa enable NAME` as an admin runs it: reads the secret from the URI it
    prints, answers the first code, and returns the secret."""
    process = subprocess.Popen(
        [SMSGW, "operator", "2fa", "enable", name], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    secret = None
    for line in process.stdout:
        if line.startswith("otpauth://"):
            query = line.strip().split("?", 1)[1]
            secret = dict(part.split("=", 1) for part in query.split("&"))["secret"]
            break
    expect(secret is not None, "operator 2fa enable printed no otpauth:// URI")
    process.stdin.write(totp(secret) + "\n")
    process.stdin.close()
    rest = process.stdout.read()
    status = process.wait(timeout=60)
    expect(status == 0, f"operator 2fa enable exited {status}: {process.stderr.read().strip()} {rest.strip()}")
    return secret


def live_banner(driver, key):
    """The text of the page's banner about `key` (`store`, `contact:NAME`), or None."""
    found = driver.find_elements(By.CSS_SELECTOR, "main > p.banner[data-banner]")
    texts = [node.text for node in found if node.get_attribute("data-banner") == key]
    return texts[0] if texts else None


@contextlib.contextmanager
def gateway_store():
    """The gateway's SQLite store, opened beside the running daemon to make a condition start
    or end (a trigger that SQLite fails as full, as the Swift tests simulate a full disk)."""
    db = sqlite3.connect(os.path.join(os.environ["SMSGW_DATA_DIR"], "smsgw.sqlite"), timeout=30)
    try:
        yield db
        db.commit()
    finally:
        db.close()
