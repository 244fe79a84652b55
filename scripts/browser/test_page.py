"""`ttt serve` in headless Chromium (run by scripts/test-browser, which installs everything).

Each `check_*` function drives the real page through selenium; a failed check stops the run
with its message. Screenshots go to $SCREENSHOTS (docs/img/), for docs/web.md and the README.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import parse_qs, urlparse

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

TTT = os.environ["TTT_BIN"]
AXE_JS = Path(os.environ["AXE_JS"]).read_text()
SHOTS = Path(os.environ.get("SCREENSHOTS", "docs/img"))


def start_server() -> tuple[subprocess.Popen[str], str]:
    server = subprocess.Popen([TTT, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None
    line = server.stdout.readline()
    url = line.split("listening on ")[1].split(" ")[0]
    return server, url


def browser(width: int = 1200, height: int = 900) -> WebDriver:
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", f"--window-size={width},{height}"):
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def wait_for(what: str, test: Callable[[], object], timeout: float = 30.0) -> object:
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = test()
            if value:
                return value
        except Exception:  # the page is being redrawn
            pass
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def moves_in_url(driver: WebDriver) -> str:
    return parse_qs(urlparse(driver.current_url).query).get("moves", [""])[0]


def status(driver: WebDriver) -> str:
    return driver.find_element(By.ID, "status").text


def cells(driver: WebDriver):
    return driver.find_elements(By.CSS_SELECTOR, "#board .cell")


def board_text(driver: WebDriver, cols: int) -> str:
    marks = [c.text.strip() if c.text.strip() in ("X", "O") else "." for c in cells(driver)]
    rows = ["".join(marks[i : i + cols]) for i in range(0, len(marks), cols)]
    return "/".join(rows)


def api(url: str, path: str) -> dict:
    import urllib.request

    with urllib.request.urlopen(url + path.lstrip("/")) as answer:
        return json.loads(answer.read())


def ttt_json(*args: str) -> list[dict]:
    out = subprocess.run([TTT, *args, "--json"], check=True, capture_output=True, text=True)
    return [json.loads(line) for line in out.stdout.splitlines()]


def hints_done(driver: WebDriver) -> bool:
    pending = driver.find_elements(By.CSS_SELECTOR, "#board .hint.pending")
    verdict = driver.find_element(By.ID, "verdict").text
    return not pending and verdict.startswith("Verdict:") and "solving" not in verdict


def check_full_connect_four_game_by_clicks(driver: WebDriver, url: str) -> None:
    driver.get(url + "?game=connect-four")
    wait_for("the board", lambda: len(cells(driver)) == 42)
    # X takes the bottom row from column 4 to 7 while O stacks on it: X wins at ply 7.
    for ply, column in enumerate("4455667", start=1):
        top_cell = cells(driver)[int(column) - 1]  # any cell of the column plays it
        top_cell.click()
        wait_for(f"ply {ply}", lambda p=ply: len(moves_in_url(driver)) == p)
    wait_for("the result", lambda: status(driver) == "Game over: X won")
    assert moves_in_url(driver) == "4455667"
    announced = driver.find_element(By.ID, "announce").get_attribute("textContent")
    assert "X played 7" in announced and "Game over: X won" in announced, announced
    underlined = driver.find_elements(By.CSS_SELECTOR, "#board .cell.line")
    assert len(underlined) == 4, len(underlined)


def check_game_by_keys_with_undo_redo_and_back(driver: WebDriver, url: str) -> None:
    driver.get(url + "?game=connect-four")
    wait_for("the board", lambda: len(cells(driver)) == 42)
    body = driver.find_element(By.TAG_NAME, "body")
    for ply, key in enumerate("1212121", start=1):
        body.send_keys(key)
        wait_for(f"ply {ply} by key", lambda p=ply: len(moves_in_url(driver)) == p)
    wait_for("X's vertical win", lambda: status(driver) == "Game over: X won")
    body.send_keys("u")
    wait_for("undo", lambda: moves_in_url(driver) == "121212")
    assert status(driver).startswith("X to move")
    body.send_keys("u")
    wait_for("second undo", lambda: moves_in_url(driver) == "12121")
    body.send_keys("r")
    wait_for("redo", lambda: moves_in_url(driver) == "121212")
    driver.back()
    wait_for("back", lambda: moves_in_url(driver) == "12121")
    driver.forward()
    wait_for("forward", lambda: moves_in_url(driver) == "121212")
    # Keyboard on the board: focus a cell, arrows, Enter plays its column.
    first = cells(driver)[0]
    driver.execute_script("arguments[0].focus()", first)
    active = driver.switch_to.active_element
    active.send_keys(Keys.ARROW_RIGHT)
    active = driver.switch_to.active_element
    assert active.get_attribute("data-col") == "1", active.get_attribute("data-col")
    active.send_keys(Keys.ENTER)
    wait_for("Enter plays column 2", lambda: moves_in_url(driver) == "1212122")
    # Focus is visible: the focused cell has an outline.
    outline = driver.execute_script("return getComputedStyle(document.activeElement).outlineStyle")
    assert outline not in ("none", ""), outline


def check_url_round_trip(driver: WebDriver, url: str) -> None:
    for game, moves, cols in (
        ("connect-four", "4453", 7),
        ("tic-tac-toe", "b2,a1,c3", 3),
        ("5,6,4,gravity", "6", 6),
    ):
        driver.get(f"{url}?game={game}&moves={moves}")
        position = api(url, f"api/position?game={game}&moves={moves}")
        board = position["board"]
        wait_for(f"{game} {moves}", lambda c=cols, b=board: board_text(driver, c) == b)
        assert moves_in_url(driver) == moves
        assert status(driver).startswith(f"{position['to_move']} to move")


def check_hints_against_ttt_solve(driver: WebDriver, url: str) -> None:
    for moves in ("44444423333332", "4444442333333255"):
        driver.get(f"{url}?game=connect-four&moves={moves}")
        wait_for("every hint", lambda: hints_done(driver), timeout=60)
        shown = {
            int(h.get_attribute("data-action")): h.text.replace("\n", " ")
            for h in driver.find_elements(By.CSS_SELECTOR, "#board .hint")
        }
        children = [f"{moves}{action + 1}" for action in sorted(shown)]
        solved = ttt_json("solve", "--game", "connect-four", *children, moves)
        for (action, text), child in zip(sorted(shown.items()), solved):
            mover = "x" if len(moves) % 2 == 0 else "o"
            if child["value"] == "draw":
                expected = "■ draw"
            elif child["value"].startswith(mover):
                expected = f"▲ win {child['distance'] + 1}"
            else:
                expected = f"▼ loss {child['distance'] + 1}"
            score = -child["score"]
            expected += f" ({'+' if score > 0 else ''}{score})"
            assert text == expected, (moves, action, text, expected)
        verdict = driver.find_element(By.ID, "verdict").text
        parent = solved[-1]
        if parent["value"] == "draw":
            assert verdict == "Verdict: draw with best play.", verdict
        else:
            winner = parent["value"][0].upper()
            assert verdict == f"Verdict: {winner} wins in {parent['distance']} plies.", verdict
    # Hints hide for play, and come back.
    driver.find_element(By.TAG_NAME, "body").send_keys("h")
    wait_for("hints hidden", lambda: not driver.find_element(By.ID, "hints").is_selected())
    assert not any(h.is_displayed() for h in driver.find_elements(By.CSS_SELECTOR, ".cell .hint"))
    assert "hints=0" in driver.current_url
    driver.find_element(By.TAG_NAME, "body").send_keys("h")
    wait_for("hints back", lambda: driver.find_element(By.ID, "hints").is_selected())


def check_gomoku_says_no_hints(driver: WebDriver, url: str) -> None:
    driver.get(f"{url}?game=gomoku&moves=h8")
    note = driver.find_element(By.ID, "solver-note")
    wait_for("the solver's refusal", lambda: note.is_displayed())
    assert "no time bound on gomoku" in note.text, note.text
    assert not any(h.is_displayed() for h in driver.find_elements(By.CSS_SELECTOR, ".cell .hint"))


def check_ultimate_by_clicks_and_keys(driver: WebDriver, url: str) -> None:
    driver.get(f"{url}?game=ultimate&o=easy")
    wait_for("the 81 cells", lambda: len(cells(driver)) == 81)
    meta = driver.find_element(By.ID, "meta-text")
    assert "X plays in any open board" in meta.text, meta.text
    # The centre cell of the grid is 4:4; O (easy) answers in board 4, where it is sent.
    cells(driver)[40].click()
    wait_for("O's reply", lambda: len(moves_in_url(driver).split(",")) == 2)
    first, reply = moves_in_url(driver).split(",")
    assert first == "4:4" and reply.startswith("4:"), reply
    board = int(reply.split(":")[1])
    wait_for("the board to play", lambda: f"X plays in board {board}" in meta.text)
    outlined = driver.find_elements(By.CSS_SELECTOR, "#board .cell.playable")
    assert len(outlined) == 9, len(outlined)
    # A cell outside that board is refused by the server's legal list, and nothing is played.
    outside = next(i for i in range(81) if (i // 27) * 3 + (i % 9) // 3 != board)
    cells(driver)[outside].click()
    announced = driver.find_element(By.ID, "announce")
    wait_for("the refusal", lambda: "not legal" in announced.get_attribute("textContent"))
    assert len(moves_in_url(driver).split(",")) == 2
    # By keys: focus the board's top-left cell, Right arrow, Enter plays B:1.
    top_left = (board // 3) * 27 + (board % 3) * 3
    cells(driver)[top_left].send_keys(Keys.ARROW_RIGHT)
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    wait_for("the move by keys", lambda: len(moves_in_url(driver).split(",")) >= 3)
    assert moves_in_url(driver).split(",")[2] == f"{board}:1", moves_in_url(driver)
    note = driver.find_element(By.ID, "solver-note")
    wait_for("the unsolved note", lambda: note.is_displayed())
    assert "unsolved" in note.text, note.text
    assert not any(h.is_displayed() for h in driver.find_elements(By.CSS_SELECTOR, ".cell .hint"))


def check_engine_plays(driver: WebDriver, url: str) -> None:
    driver.get(f"{url}?game=tic-tac-toe&o=perfect")
    wait_for("the board", lambda: len(cells(driver)) == 9)
    cells(driver)[4].click()
    wait_for("the computer's reply", lambda: len(moves_in_url(driver).split(",")) == 2)
    reply = moves_in_url(driver).split(",")[1]
    assert reply in ("a1", "a3", "c1", "c3"), reply  # only a corner draws against the centre


def check_explainer_against_ttt_encode(driver: WebDriver, url: str) -> None:
    board = "X.O..O.X."
    driver.get(f"{url}explain?board={board}")
    table = wait_for("the codes", lambda: driver.find_element(By.ID, "codes"))
    wait_for("the codes' rows", lambda: len(table.find_elements(By.TAG_NAME, "tr")) > 5)
    rows = {
        r.find_elements(By.TAG_NAME, "td")[0].text: r.find_elements(By.TAG_NAME, "td")[1].text
        for r in table.find_elements(By.TAG_NAME, "tr")
        if r.find_elements(By.TAG_NAME, "td")
    }
    (encoded,) = ttt_json("encode", board)
    for name, key in (
        ("base-4 (18 bits)", "base4"),
        ("base-3 (15 bits)", "base3"),
        ("bitboards", "bitboards"),
        ("count rank", "count_rank"),
        ("rank", "rank"),
        ("canonical", "canonical"),
        ("symmetry", "symmetry"),
        ("oriented", "oriented"),
    ):
        assert rows[name] == str(encoded[key]), (name, rows[name], encoded[key])
    # Setting a cell by keyboard goes through the server and changes the code.
    cell = driver.find_element(By.CSS_SELECTOR, '#grid [data-cell="4"]')
    cell.send_keys("x")
    wait_for("the set", lambda: "Set cell 4 from . to X" in driver.find_element(By.ID, "set-note").text)
    (after,) = ttt_json("encode", "X.O.XO.X.")
    change = f"base-3 {encoded['base3']} → {after['base3']}"
    wait_for("the new base-3", lambda: change in driver.find_element(By.ID, "set-note").text)
    # The paper's wrong positions are listed and load.
    wrong = wait_for("the list", lambda: driver.find_elements(By.CSS_SELECTOR, "#wrong button"))
    assert len(wrong) == 95, len(wrong)
    wrong[0].click()
    wait_for("a wrong one", lambda: "WRONG" in driver.find_element(By.ID, "paper-verdict").text)


def check_phone_width(url: str) -> None:
    driver = browser(390, 844)
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True},
    )
    try:
        for page in (
            "?game=connect-four&moves=4453",
            "?game=tic-tac-toe&moves=b2",
            "?game=4x4",
            "explain?board=XXXOO....",
        ):
            driver.get(url + page)
            time.sleep(1.0)
            width = driver.execute_script("return window.innerWidth")
            assert width == 390, width
            overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 1, (page, overflow)
            # Every cell of the board is on the screen, none cut.
            right = driver.execute_script(
                "return Math.max(...[...document.querySelectorAll('.cell')]"
                ".map((c) => c.getBoundingClientRect().right))"
            )
            assert right <= width, (page, right)
        driver.get(url + "?game=connect-four&moves=44444423333332")
        wait_for("hints", lambda: hints_done(driver), timeout=60)
        driver.save_screenshot(str(SHOTS / "serve-phone.png"))
    finally:
        driver.quit()


def check_accessibility(driver: WebDriver, url: str) -> None:
    pages = (
        "?game=connect-four&moves=44444423333332",
        "explain?board=XXXOO....",
        "?game=tic-tac-toe&moves=b2",
        "?game=ultimate&moves=0:0,0:3,3:0,0:4,4:0,0:6,6:0,0:1,1:0,0:2,2:0",
    )
    for page in pages:
        driver.get(url + page)
        time.sleep(1.5)
        driver.execute_script(AXE_JS)
        result = driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "axe.run(document).then((r) => done(r.violations)).catch((e) => done(String(e)));"
        )
        assert isinstance(result, list), result
        serious = [
            (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
            for v in result
            if v["impact"] in ("serious", "critical")
        ]
        assert not serious, (page, serious)


def take_screenshots(driver: WebDriver, url: str) -> None:
    driver.set_window_size(1100, 760)
    driver.get(url + "?game=connect-four&moves=44444423333332")
    wait_for("hints", lambda: hints_done(driver), timeout=60)
    driver.save_screenshot(str(SHOTS / "serve-connect-four.png"))
    driver.set_window_size(1200, 900)
    driver.get(url + "explain?board=XXXOO....")
    wait_for("the explainer", lambda: "WRONG" in driver.find_element(By.ID, "paper-verdict").text)
    time.sleep(0.5)
    driver.save_screenshot(str(SHOTS / "serve-explain.png"))
    driver.set_window_size(1100, 1250)
    driver.get(url + "?game=ultimate&moves=0:0,0:3,3:0,0:4,4:0,0:6,6:0,0:1,1:0,0:2,2:0")
    wait_for("the unsolved note", lambda: driver.find_element(By.ID, "solver-note").is_displayed())
    driver.save_screenshot(str(SHOTS / "serve-ultimate.png"))


def main() -> int:
    SHOTS.mkdir(parents=True, exist_ok=True)
    server, url = start_server()
    driver = browser()
    checks = [
        check_full_connect_four_game_by_clicks,
        check_game_by_keys_with_undo_redo_and_back,
        check_url_round_trip,
        check_hints_against_ttt_solve,
        check_gomoku_says_no_hints,
        check_engine_plays,
        check_ultimate_by_clicks_and_keys,
        check_explainer_against_ttt_encode,
        check_accessibility,
        take_screenshots,
    ]
    failed = 0
    try:
        for check in checks:
            started = time.monotonic()
            try:
                check(driver, url)
                print(f"ok   {check.__name__} ({time.monotonic() - started:.1f} s)")
            except Exception as error:  # report every check, then fail
                failed += 1
                print(f"FAIL {check.__name__}: {error!r}")
        try:
            check_phone_width(url)
            print("ok   check_phone_width")
        except Exception as error:
            failed += 1
            print(f"FAIL check_phone_width: {error!r}")
        errors = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
        if errors:
            failed += 1
            print("FAIL console errors:", *errors, sep="\n  ")
    finally:
        driver.quit()
        server.terminate()
        server.wait(timeout=10)
    print(f"{len(checks) + 1 - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
