using System;
using System.Collections;
using System.Collections.Generic;
using System.IO;
using System.Globalization;
using System.Linq;
using System.Text;
using GamePlatform.Kit;

/// <summary>Runs every case of kits/vectors.json (generated from the service's own signing code). A plain main
/// (no test framework to download): exits 1 when a case fails and prints "N passed, N failed".</summary>
static class VectorsTest
{
    static int passed, failed;

    static void Check(string name, bool ok, string detail = "")
    {
        if (ok) passed++;
        else { failed++; Console.WriteLine("FAIL " + name + ": " + detail); }
    }

    static object Get(object o, string k) { return ((JsonObject)o).Get(k); }
    static string S(object o, string k) { var v = Get(o, k); return v == null ? null : v.ToString(); }
    static IList L(object o, string k) { return (IList)Get(o, k); }
    static byte[] Utf8(string s) { return Encoding.UTF8.GetBytes(s); }

    static void Compare(string name, object expect, Dictionary<string, string> got)
    {
        foreach (var m in (JsonObject)expect)
        {
            string want = m.Value == null ? null : m.Value.ToString(), have;
            bool present = got.TryGetValue(m.Key, out have);
            Check(name + " / " + m.Key, present && have == want, present ? (have ?? "null") : "missing");
        }
    }

    static Role RoleOf(object m)
    {
        return new Role { UserId = S(m, "userId"), RoleId = S(m, "roleId"), Name = S(m, "name"), Avatar = S(m, "avatar"),
            RoleLv = S(m, "roleLv") == null ? (long?)null : long.Parse(S(m, "roleLv")), ServerId = S(m, "serverId"), ServerName = S(m, "serverName") };
    }

    /// <summary>JSON values equal, object members in any order.</summary>
    static bool Same(object a, object b)
    {
        if (a == null || b == null) return a == null && b == null;
        var oa = a as JsonObject; var ob = b as JsonObject;
        if (oa != null || ob != null)
            return oa != null && ob != null && oa.Count == ob.Count && oa.All(m => ob.Any(n => n.Key == m.Key) && Same(m.Value, ob.Get(m.Key)));
        var la = a as IList; var lb = b as IList;
        if (la != null || lb != null)
            return la != null && lb != null && la.Count == lb.Count && Enumerable.Range(0, la.Count).All(i => Same(la[i], lb[i]));
        return a.GetType() == b.GetType() && a.ToString() == b.ToString();
    }

    static int Main(string[] args)
    {
        string file = args.Length > 0 ? args[0] : Environment.GetEnvironmentVariable("KIT_VECTORS") ?? "../vectors.json";
        object v = Json.Parse(File.ReadAllText(file, Encoding.UTF8));

        foreach (var c in L(v, "callback"))
        {
            string d = S(c, "description");
            var pems = new Dictionary<string, string>();
            foreach (var kid in L(c, "publicKeys")) pems[(string)kid] = S(Get(Get(v, "keys"), (string)kid), "publicKeyPem");
            long now = long.Parse(S(c, "now"));
            Func<long> clock = () => now;
            var store = new MemoryNonceStore(clock);
            foreach (var n in L(c, "seenNonces")) store.Remember((string)n, now + 600);
            var verifier = new CallbackVerifier(pems, long.Parse(S(c, "windowSeconds")), store, clock);
            var headers = L(c, "headers").Cast<IList>().Select(h => new KeyValuePair<string, string>((string)h[0], (string)h[1])).ToList();
            string method = S(c, "method"), path = S(c, "path"), expect = S(c, "expect");
            byte[] body = Utf8(S(c, "body"));
            string got;
            try { got = "ok:" + verifier.Verify(method, path, headers, body).KeyId; }
            catch (CallbackVerificationException e) { got = e.Code; }
            string want = expect == "ok" ? "ok:" + S(c, "expectKeyId") : expect;
            Check(d, got == want, "got " + got + ", want " + want);
            if (expect == "ok")
            {
                try { verifier.Verify(method, path, headers, body); Check(d + " (again)", false, "a replay was accepted"); }
                catch (CallbackVerificationException e) { Check(d + " (again)", e.Reason == VerifyReason.ReplayedNonce, e.Code); }
                string ts = headers.First(h => h.Key.ToLowerInvariant() == "timestamp").Value;
                string nonce = headers.First(h => h.Key.ToLowerInvariant() == "nonce").Value;
                Check(d + " (sign base)", Encoding.UTF8.GetString(CallbackVerifier.SignBase(method, path, ts, nonce, body)) == S(c, "signBase"));
            }
        }

        foreach (var c in L(v, "md5"))
        {
            string d = S(c, "description");
            var p = (JsonObject)Get(c, "params");
            string canonical = Md5Signer.Canonical(p);
            Check(d, canonical == S(c, "canonical"), canonical);
            Check(d + " (sign)", Md5Signer.Sign(p, S(c, "secret")) == S(c, "sign"));
        }
        foreach (var c in L(v, "md5Bodies"))
        {
            string d = S(c, "description");
            var p = (JsonObject)Json.Parse(S(c, "body"));
            var typed = new Dictionary<string, object>();
            foreach (var m in p) typed[m.Key] = m.Value;
            foreach (var k in L(c, "decimals"))
                typed[(string)k] = decimal.Parse((string)typed[(string)k], NumberStyles.Float, CultureInfo.InvariantCulture);
            string canonical = Md5Signer.Canonical(typed);
            Check(d, canonical == S(c, "canonical"), canonical);
            Check(d + " (sign)", Md5Signer.Sign(typed, S(c, "secret")) == S(c, "sign"));
        }
        var strings = new Dictionary<string, object> { { "m", new Dictionary<string, string> { { "b", "2" }, { "a", "1" } } },
            { "ids", new[] { 3, 4 } }, { "price", 19.99m }, { "tip", 0.10m }, { "qty", 100m } };
        Check("Dictionary<string,string>, int[] and decimal", Md5Signer.Canonical(strings) == "ids.0=3&ids.1=4&m.a=1&m.b=2&price=19.99&qty=100&tip=0.1", Md5Signer.Canonical(strings));
        var numbers = new Dictionary<double, string> { { 1.5, "1.5" }, { 1e21, "1e+21" }, { 1e20, "100000000000000000000" }, { 1e-7, "1e-7" },
            { 0.000001, "0.000001" }, { -273.15, "-273.15" }, { 5e-324, "5e-324" }, { 0.30000000000000004, "0.30000000000000004" },
            { 1.7976931348623157e308, "1.7976931348623157e+308" }, { 2e-3, "0.002" } };
        foreach (var n in numbers) Check("JsNumber " + n.Value, Md5Signer.JsNumber(n.Key) == n.Value, Md5Signer.JsNumber(n.Key));
        var native = new Dictionary<string, object> { { "o", new Dictionary<string, object> { { "l", new List<object> { 1, 2L } } } }, { "f", 0.5 }, { "n", null } };
        Check("native C# values", Md5Signer.Canonical(native) == "f=0.5&o.l.0=1&o.l.1=2", Md5Signer.Canonical(native));
        try { Md5Signer.Canonical((JsonObject)Json.Parse("{\"a.b\":\"1\",\"a\":{\"b\":\"2\"}}")); Check("duplicate flattened key", false, "accepted"); }
        catch (ArgumentException) { Check("duplicate flattened key", true); }

        foreach (var c in L(v, "mac"))
        {
            string d = S(c, "description");
            string ts = S(c, "ts"), nonce = S(c, "nonce"), method = S(c, "method"), uri = S(c, "uri"), host = S(c, "host"), port = S(c, "port");
            Check(d + " (base)", MacSigner.SignBase(ts, nonce, method, uri, host, port) == S(c, "signBase"));
            Check(d + " (mac)", MacSigner.Mac(S(c, "macKey"), ts, nonce, method, uri, host, port) == S(c, "mac"));
            string header = MacSigner.Authorization(S(c, "kid"), S(c, "macKey"), method, uri, host, port, ts, nonce);
            Check(d + " (header)", header == S(c, "header"), header);
        }

        foreach (var c in L(v, "notifications"))
        {
            var n = Notification.Parse(Utf8(S(c, "body")));
            var p0 = n.Products.FirstOrDefault();
            Compare(S(c, "description"), Get(c, "expect"), new Dictionary<string, string> {
                { "notifyId", n.NotifyId.ToString() }, { "appId", n.AppId.ToString() }, { "userId", n.UserId }, { "trxNo", n.TrxNo.ToString() },
                { "originalTrxNo", n.OriginalTrxNo == null ? null : n.OriginalTrxNo.ToString() }, { "trxType", n.TrxType.ToString() },
                { "kind", n.IsPayment ? "payment" : n.IsRefund ? "refund" : "unknown" }, { "outTrxNo", n.OutTrxNo },
                { "channel", n.Channel.ToString() }, { "currency", n.Currency }, { "totalAmount", n.TotalAmount }, { "clientAmount", n.ClientAmount },
                { "productCount", n.Products.Count.ToString() }, { "products.0.productCode", p0 == null ? null : p0.ProductCode },
                { "products.0.quantity", p0 == null ? null : p0.Quantity.ToString() }, { "attach.gameRoleId", n.Attach == null ? null : n.Attach.GameRoleId } });
        }
        foreach (var c in L(v, "preOrderChecks"))
        {
            var p = PreOrderCheck.Parse(Utf8(S(c, "body")));
            Compare(S(c, "description"), Get(c, "expect"), new Dictionary<string, string> {
                { "roleId", p.RoleId }, { "serverId", p.ServerId }, { "productSkuCode", p.ProductSkuCode }, { "quantity", p.Quantity.ToString() }, { "extras", p.Extras } });
        }
        foreach (var c in L(v, "answers"))
        {
            var a = (JsonObject)Get(c, "args");
            Answer got;
            switch (S(c, "kind"))
            {
                case "acceptNotification": got = Answer.AcceptNotification(); break;
                case "rejectNotification": got = Answer.RejectNotification(int.Parse(S(a, "status")), S(a, "msg")); break;
                case "role": got = Answer.RoleQuery(RoleOf(a)); break;
                case "roleList": got = Answer.RoleList(L(a, "roles").Cast<object>().Select(RoleOf).ToList()); break;
                case "preOrderAllow": got = Answer.PreOrderAllow(); break;
                default: got = Answer.PreOrderReject(int.Parse(S(a, "code")), S(a, "detail"), S(a, "msg")); break;
            }
            var expect = Get(c, "expect");
            bool ok = got.Status.ToString() == S(expect, "status") && Same(Json.Parse(got.Json()), Get(expect, "body"));
            Check(S(c, "description"), ok, got.Status + " " + got.Json());
        }
        try { Notification.Parse(Utf8("{\"products\":[],\"notifyId\":\"x\"}")); Check("bad field named", false, "accepted"); }
        catch (BodyException e) { Check("bad field named", e.Field == "notifyId", e.Field); }
        string reject = Answer.PreOrderReject(PreOrderCode.PurchaseLimitReached, "limit 5/day").Json();
        Check("pre-order reject", reject == "{\"code\":105,\"msg\":null,\"detail\":\"limit 5/day\"}", reject);
        Check("empty role list is 401", Answer.RoleList(new List<Role>()).Status == 401);

        Console.WriteLine(passed + " passed, " + failed + " failed");
        return failed == 0 ? 0 : 1;
    }
}
