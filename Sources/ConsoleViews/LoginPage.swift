/// The sign-in form: name, password and, for operators with two-factor login, the code.
public enum LoginPage {
    /// The form, with a problem banner when the last attempt failed (the same sentence whether
    /// the name or the password was wrong).
    public static func render(problem: String? = nil, name: String = "", csrfToken: String) -> HTML {
        let body: HTML = """
            <form class="login" method="post" action="/login">
            <input type="hidden" name="csrf" value="\(csrfToken)">
            <label>Name <input name="name" autocomplete="username" required value="\(name)"></label>
            <label>Password <input name="password" type="password" autocomplete="current-password" required></label>
            <label>Code <input name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6,8}" \
            placeholder="only with two-factor login"></label>
            <button>Sign in</button>
            </form>
            """
        return ConsolePage.document(
            title: "Sign in", viewer: nil, section: nil, banners: problem.map { [Banner(.problem, $0)] } ?? [], body: body)
    }
}
