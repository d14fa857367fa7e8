// Sign up and log in (docs/server.md, "Accounts"). The server sets an HttpOnly cookie.

import { post } from "./api.js";
import { h, messageLine } from "./dom.js";
import { go } from "./main.js";

export function mount(main, where, app) {
  const signup = where.page === "signup";
  const message = messageLine();
  const after = where.query.get("next") || "#/";
  const name = h("input", {
    id: "name",
    name: "name",
    autocomplete: "username",
    required: true,
    minlength: signup ? 3 : 1,
    maxlength: 20,
  });
  const password = h("input", {
    id: "password",
    name: "password",
    type: "password",
    autocomplete: signup ? "new-password" : "current-password",
    required: true,
    minlength: signup ? 8 : 1,
    maxlength: 128,
  });
  const button = h("button", { type: "submit", class: "primary" }, signup ? "Sign up" : "Log in");
  async function submit(event) {
    event.preventDefault();
    button.disabled = true;
    message.show(signup ? "Creating your account…" : "Logging in…");
    try {
      const login = await post(signup ? "/auth/register" : "/auth/login", {
        name: name.value.trim(),
        password: password.value,
      });
      await app.setAccount(login.account);
      go(after);
    } catch (err) {
      message.show(err.message, "error");
      button.disabled = false;
    }
  }
  // the other form keeps where to go next (an invite link's table for a newcomer)
  const keep = where.query.get("next") ? `?next=${encodeURIComponent(after)}` : "";
  const other = signup
    ? h("p", {}, "Have an account? ", h("a", { href: `#/login${keep}` }, "Log in"))
    : h("p", {}, "New here? ", h("a", { href: `#/signup${keep}` }, "Sign up"));
  main.append(
    h(
      "section",
      { class: "card narrow" },
      h("h1", {}, signup ? "Sign up" : "Log in"),
      h(
        "form",
        { onsubmit: submit, class: "stack" },
        h("label", { for: "name" }, "Name"),
        name,
        signup ? h("small", {}, "3-20 letters, digits, spaces, _ . -") : null,
        h("label", { for: "password" }, "Password"),
        password,
        signup ? h("small", {}, "At least 8 characters") : null,
        button,
        message.el,
      ),
      other,
    ),
  );
  name.focus();
}
