using System;
using System.Collections;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Numerics;
using System.Security.Cryptography;
using System.Text;

namespace GamePlatform.Kit
{
    /// <summary>The md5 parameter signature of spec 5.1 (4.1, 4.2, 4.6) in the canonical form of docs/signing.md:
    /// nested objects and lists flatten to dot paths (a.b, list.0), null is left out, keys sort by UTF-8 bytes,
    /// values as text (integers as digits, other numbers as ECMAScript Number#toString), joined k=v&amp;..., then
    /// the secret. Values: string, bool, integer types, double/float, JsonNumber, IDictionary&lt;string, object&gt;,
    /// JsonObject, IList, null.</summary>
    public static class Md5Signer
    {
        public const int MaxSignDepth = 32;

        /// <summary>Lowercase hex md5 of Canonical(params) + secret: the sign parameter.</summary>
        public static string Sign(IEnumerable<KeyValuePair<string, object>> parameters, string secret)
        {
            using (var md5 = MD5.Create())
            {
                byte[] d = md5.ComputeHash(Encoding.UTF8.GetBytes(Canonical(parameters) + secret));
                return string.Concat(d.Select(b => b.ToString("x2")));
            }
        }

        /// <summary>k1=v1&amp;k2=v2... over every parameter except the top-level sign.</summary>
        public static string Canonical(IEnumerable<KeyValuePair<string, object>> parameters)
        {
            var output = new List<KeyValuePair<string, string>>();
            foreach (var p in parameters) if (p.Key != "sign") Flatten(p.Key, p.Value, 0, output);
            var sorted = output.Select(p => new { p, bytes = Encoding.UTF8.GetBytes(p.Key) }).ToList();
            sorted.Sort((a, b) => CompareBytes(a.bytes, b.bytes));
            var sb = new StringBuilder();
            for (int i = 0; i < sorted.Count; i++)
            {
                if (i > 0 && sorted[i].p.Key == sorted[i - 1].p.Key)
                    throw new ArgumentException("md5 sign: key " + sorted[i].p.Key + " occurs twice after flattening");
                if (i > 0) sb.Append('&');
                sb.Append(sorted[i].p.Key).Append('=').Append(sorted[i].p.Value);
            }
            return sb.ToString();
        }

        static int CompareBytes(byte[] a, byte[] b)
        {
            for (int i = 0; i < Math.Min(a.Length, b.Length); i++) if (a[i] != b[i]) return a[i].CompareTo(b[i]);
            return a.Length.CompareTo(b.Length);
        }

        static void Flatten(string key, object v, int depth, List<KeyValuePair<string, string>> output)
        {
            if (v == null) return;
            IEnumerable<KeyValuePair<string, object>> members = null;
            if (v is JsonObject) members = (JsonObject)v;
            else if (v is IDictionary<string, object>) members = (IDictionary<string, object>)v;
            else if (v is IDictionary) members = Members(key, (IDictionary)v); // Dictionary<string, string>, Hashtable...
            if (members != null || (v is IList && !(v is string)))
            {
                if (depth >= MaxSignDepth) throw new ArgumentException("md5 sign: " + key + " is nested deeper than " + MaxSignDepth);
                if (members != null) foreach (var m in members) Flatten(key + "." + m.Key, m.Value, depth + 1, output);
                else
                {
                    var l = (IList)v;
                    for (int i = 0; i < l.Count; i++) Flatten(key + "." + i, l[i], depth + 1, output);
                }
                return;
            }
            output.Add(new KeyValuePair<string, string>(key, Scalar(key, v)));
        }

        static IEnumerable<KeyValuePair<string, object>> Members(string key, IDictionary d)
        {
            var list = new List<KeyValuePair<string, object>>();
            foreach (DictionaryEntry e in d)
            {
                if (!(e.Key is string)) throw new ArgumentException("md5 sign: " + key + " is a dictionary without string keys");
                list.Add(new KeyValuePair<string, object>((string)e.Key, e.Value));
            }
            return list;
        }

        /// <summary>A decimal signs as the JSON number it is sent as is read by the service (5.1): one without a fraction
        /// (scale 0, 100m) by its exact digits, any other by the ECMAScript text of its double, so 0.10m signs as 0.1
        /// and 19.99m as 19.99.</summary>
        public static string DecimalText(decimal d)
        {
            string text = d.ToString(CultureInfo.InvariantCulture);
            int scale = (decimal.GetBits(d)[3] >> 16) & 0xFF;
            if (scale == 0) return text == "-0" ? "0" : text;
            return JsNumber(double.Parse(text, NumberStyles.Float, CultureInfo.InvariantCulture));
        }

        static string Scalar(string key, object v)
        {
            if (v is decimal) return DecimalText((decimal)v);
            if (v is string) return (string)v;
            if (v is bool) return (bool)v ? "true" : "false";
            if (v is int || v is long || v is short || v is byte || v is uint || v is ulong || v is BigInteger)
                return Convert.ToString(v, CultureInfo.InvariantCulture);
            if (v is double || v is float) return JsNumber(Convert.ToDouble(v, CultureInfo.InvariantCulture));
            var n = v as JsonNumber;
            if (n != null)
            {
                // An integer keeps its exact digits however long: the service reads integers past 2^53 as their digits.
                if (n.IsInteger) return n.Text == "-0" ? "0" : n.Text;
                return JsNumber(n.ToDouble());
            }
            throw new ArgumentException("md5 sign: " + key + " has unsupported type " + v.GetType().Name);
        }

        /// <summary>ECMAScript Number#toString of a double (shortest round-trip digits): 1.5, 1e+21, 0.000001, 1e-7.</summary>
        public static string JsNumber(double x)
        {
            if (double.IsNaN(x) || double.IsInfinity(x)) throw new ArgumentException("md5 sign: only finite numbers can be signed");
            if (x == 0) return "0";
            if (x < 0) return "-" + JsNumber(-x);
            string e = null;
            for (int p = 1; p <= 17; p++)
            {
                e = x.ToString("E" + (p - 1), CultureInfo.InvariantCulture);   // d.dddE+xxx
                double back;   // too few digits near double.MaxValue overflow: keep going
                if (double.TryParse(e, NumberStyles.Float, CultureInfo.InvariantCulture, out back) && back == x) break;
            }
            int ePos = e.IndexOf('E');
            int exp = int.Parse(e.Substring(ePos + 1), CultureInfo.InvariantCulture);
            string digits = e.Substring(0, ePos).Replace(".", "").TrimEnd('0');
            if (digits.Length == 0) digits = "0";
            int k = digits.Length, nn = exp + 1;
            if (k <= nn && nn <= 21) return digits + new string('0', nn - k);
            if (0 < nn && nn <= 21) return digits.Substring(0, nn) + "." + digits.Substring(nn);
            if (-6 < nn && nn <= 0) return "0." + new string('0', -nn) + digits;
            return digits.Substring(0, 1) + (k > 1 ? "." + digits.Substring(1) : "") + "e" + (nn - 1 >= 0 ? "+" : "-") + Math.Abs(nn - 1);
        }
    }

    /// <summary>The MAC token of spec 5.2 (4.3, 4.5): HMAC-SHA1 over ts, nonce, METHOD, uri, host, port, each followed by LF.</summary>
    public static class MacSigner
    {
        /// <summary>uri is the path and query exactly as sent; port is 443 for the platform.</summary>
        public static string SignBase(string ts, string nonce, string method, string uri, string host, string port = "443")
        {
            var parts = new[] { ts, nonce, method.ToUpperInvariant(), uri, host, port };
            if (parts.Any(p => p.Contains("\n"))) throw new ArgumentException("MAC sign base: a value contains a line feed");
            return string.Concat(parts.Select(p => p + "\n"));
        }

        public static string Mac(string macKey, string ts, string nonce, string method, string uri, string host, string port = "443")
        {
            using (var h = new HMACSHA1(Encoding.UTF8.GetBytes(macKey)))
                return Convert.ToBase64String(h.ComputeHash(Encoding.UTF8.GetBytes(SignBase(ts, nonce, method, uri, host, port))));
        }

        /// <summary>The Authorization header: MAC id="..",ts="..",nonce="..",mac="..". Null ts/nonce: now / 16 random bytes.</summary>
        public static string Authorization(string kid, string macKey, string method, string uri, string host, string port = "443", string ts = null, string nonce = null)
        {
            ts = ts ?? DateTimeOffset.UtcNow.ToUnixTimeSeconds().ToString(CultureInfo.InvariantCulture);
            if (nonce == null)
            {
                var b = new byte[16];
                using (var rng = RandomNumberGenerator.Create()) rng.GetBytes(b);
                nonce = Convert.ToBase64String(b).TrimEnd('=').Replace('+', '-').Replace('/', '_');
            }
            string mac = Mac(macKey, ts, nonce, method, uri, host, port);
            return "MAC id=" + Q(kid) + ",ts=" + Q(ts) + ",nonce=" + Q(nonce) + ",mac=" + Q(mac);
        }

        static string Q(string v) { return "\"" + v.Replace("\\", "\\\\").Replace("\"", "\\\"") + "\""; }
    }
}
