"""Signing in with the player's key in a real Chromium against a real server (PROTOCOL.md section 7,
"Accounts"): an account created in one browser, its key made by WebCrypto (Ed25519, not extractable) and
kept in IndexedDB; the page loaded again signs in by itself; a second browser linked by a one-time code
takes the account's seat back; a guest cannot pass for the account, and a wrong code is refused in words."""

from __future__ import annotations

from browserkit import DESKTOP, PHONE, chromium, create_table, frames_of, open_page, page_url
from playwright.async_api import Page
from server_testkit import running_server

from boneyard.protocol import decode_server_message

STORED_KEY = """async () => {
  const { KeyChain } = await import("/assets/sdk/keys.js");
  const mine = await (await KeyChain.open()).load();
  let exported = "refused";
  try { await crypto.subtle.exportKey("pkcs8", mine.keyPair.privateKey); exported = "exported"; } catch {}
  const raw = new Uint8Array(await crypto.subtle.exportKey("raw", mine.keyPair.publicKey));
  return { account: mine.account, algorithm: mine.keyPair.privateKey.algorithm.name,
    extractable: mine.keyPair.privateKey.extractable, exported, public: Array.from(raw) };
}"""


async def who(page: Page, choice: str, name: str, code: str = "") -> None:
    """Fill the first screen: a guest, a new account, or this device linked with a code."""
    await page.wait_for_selector(".name-form")
    await page.fill("input[name=name]", name)
    if code:
        await page.click(".link-form summary")
        await page.fill("input[name=link_code]", code)
    await page.click(f".name-form button[value={choice}]")


async def welcomes(page: Page) -> list[object]:
    return [m for m in map(decode_server_message, await frames_of(page)) if m.type == "welcome"]


async def test_an_account_made_linked_to_a_second_browser_and_its_seat_taken_back() -> None:
    async with running_server(bot_workers=0) as server, chromium() as browser:
        first = await open_page(browser, page_url(server.url), None, DESKTOP)
        await who(first, "create", "Ana")
        await first.wait_for_selector('#account .chip:has-text("signed in as Ana")')
        key = await first.evaluate(STORED_KEY)
        assert key["account"] == "Ana" and key["algorithm"] == "Ed25519" and len(key["public"]) == 32
        assert key["extractable"] is False and key["exported"] == "refused"  # no script can read it out

        await first.reload()  # no name stored: the key signs in by itself
        await first.wait_for_selector('#account .chip:has-text("signed in as Ana")')
        assert [w.account for w in await welcomes(first)] == ["Ana"]  # type: ignore[attr-defined]
        table_id = await create_table(first, "straight", seats=["me", "bot:basic"], target=100)
        await first.wait_for_selector(".hand .tile")

        await first.click("#link-device")
        code = await first.locator(".link-code code").inner_text()
        second = await open_page(browser, page_url(server.url), None, PHONE)
        await who(second, "link", "ana", code)  # the name as typed: one account with "Ana"
        await second.wait_for_selector('#account .chip:has-text("signed in as Ana")')
        await second.wait_for_url(f"**/t/{table_id}")  # back to the account's seat, from another browser
        await second.wait_for_selector(".hand .tile")
        (welcome,) = await welcomes(second)
        assert welcome.account == "Ana" and welcome.resumed  # type: ignore[attr-defined]
        assert [s.table_id for s in welcome.seats] == [table_id]  # type: ignore[attr-defined]
        assert (await second.evaluate(STORED_KEY))["public"] != key[
            "public"
        ]  # its own key, now the account's
        await first.wait_for_selector(
            '#status:has-text("replaced")'
        )  # the session moved to the other browser

        guest = await open_page(browser, page_url(server.url), "ANA", DESKTOP)
        await guest.wait_for_selector('.name-form .error:has-text("name_taken")')  # nobody passes for Ana
        await who(guest, "link", "Ana", code)  # a spent code
        await guest.wait_for_selector('.name-form .error:has-text("sign_in_refused")')
        for page in (first, second, guest):
            assert page.errors == []  # type: ignore[attr-defined]
