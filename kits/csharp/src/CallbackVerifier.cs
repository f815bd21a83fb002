using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Security.Cryptography;
using System.Text;
using System.Text.RegularExpressions;

namespace GamePlatform.Kit
{
    /// <summary>The check a refused call failed (5.3).</summary>
    public enum VerifyReason { MissingHeader, MalformedHeader, StaleTimestamp, UnknownKey, BadSignature, ReplayedNonce }

    /// <summary>The platform's call is refused; Reason names the failed check.</summary>
    public sealed class CallbackVerificationException : Exception
    {
        public readonly VerifyReason Reason;
        public CallbackVerificationException(VerifyReason reason, string detail)
            : base("callback signature: " + CodeOf(reason) + ": " + detail) { Reason = reason; }

        /// <summary>missing_header, malformed_header, stale_timestamp, unknown_key, bad_signature, replayed_nonce.</summary>
        public string Code { get { return CodeOf(Reason); } }

        public static string CodeOf(VerifyReason r)
        {
            return Regex.Replace(r.ToString(), "(?<=[a-z])([A-Z])", "_$1").ToLowerInvariant();
        }
    }

    /// <summary>Records nonces; Remember answers false when the nonce is recorded and not expired (a replay).
    /// Must be atomic when several game server instances share it (e.g. Redis SET key 1 NX EX ttl).</summary>
    public interface INonceStore
    {
        bool Remember(string nonce, long expiresAtEpochSeconds);
    }

    /// <summary>Nonces in this process's memory: enough for one game server instance. Thread-safe.</summary>
    public sealed class MemoryNonceStore : INonceStore
    {
        readonly Dictionary<string, long> seen = new Dictionary<string, long>();
        readonly int maxEntries;
        readonly Func<long> nowSeconds;

        public MemoryNonceStore(Func<long> nowSeconds = null, int maxEntries = 100000)
        {
            this.nowSeconds = nowSeconds ?? CallbackVerifier.SystemNow;
            this.maxEntries = maxEntries;
        }

        public bool Remember(string nonce, long expiresAt)
        {
            lock (seen)
            {
                long now = nowSeconds();
                long until;
                if (seen.TryGetValue(nonce, out until) && until > now) return false;
                if (seen.Count >= maxEntries)
                    foreach (var k in seen.Where(e => e.Value <= now).Select(e => e.Key).ToList()) seen.Remove(k);
                while (seen.Count >= maxEntries) seen.Remove(seen.First().Key);
                seen[nonce] = expiresAt;
                return true;
            }
        }
    }

    /// <summary>What a verified call carries.</summary>
    public sealed class VerifiedCall
    {
        public string KeyId;
        public long Timestamp;
        public string Nonce;
    }

    /// <summary>Verifies the platform's signed calls (spec 5.3) from the raw request: headers present and well
    /// formed, Timestamp within the window, key known (Key-Id picks among several, for rotation), RSA-SHA256 PKCS#1
    /// v1.5 over METHOD LF path LF Timestamp LF Nonce LF body LF, then the nonce not seen before (recorded only once
    /// the signature holds). It never re-serialises the body: hand it the bytes as received.</summary>
    public sealed class CallbackVerifier
    {
        // \z, not $ (which also matches before a final line feed): issue 32.
        static readonly Regex TimestampRe = new Regex("^[0-9]{1,15}\\z");
        static readonly Regex Base64Re = new Regex("^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?\\z");
        static readonly Regex ControlRe = new Regex("[\\x00-\\x1f\\x7f]");

        public static long SystemNow() { return DateTimeOffset.UtcNow.ToUnixTimeSeconds(); }

        readonly SortedDictionary<string, RSAParameters> keys = new SortedDictionary<string, RSAParameters>(StringComparer.Ordinal);
        readonly long windowSeconds;
        readonly INonceStore nonces;
        readonly Func<long> now;

        /// <summary>Platform public keys (PEM SubjectPublicKeyInfo) by key id; default window 300 s, in-memory nonces.</summary>
        public CallbackVerifier(IDictionary<string, string> publicKeyPems, long windowSeconds = 300, INonceStore nonces = null, Func<long> nowSeconds = null)
        {
            foreach (var e in publicKeyPems) keys[e.Key] = Rsa.FromPem(e.Value);
            this.windowSeconds = windowSeconds;
            this.now = nowSeconds ?? SystemNow;
            this.nonces = nonces ?? new MemoryNonceStore(this.now);
        }

        /// <summary>Every &lt;key id&gt;.pem file of a directory.</summary>
        public static Dictionary<string, string> LoadPublicKeysDir(string dir)
        {
            return Directory.GetFiles(dir, "*.pem").ToDictionary(f => Path.GetFileNameWithoutExtension(f), f => File.ReadAllText(f));
        }

        /// <summary>METHOD LF path LF Timestamp LF Nonce LF body LF, the path without its query string.</summary>
        public static byte[] SignBase(string method, string path, string timestamp, string nonce, byte[] body)
        {
            int q = path.IndexOf('?');
            if (q >= 0) path = path.Substring(0, q);
            byte[] head = Encoding.UTF8.GetBytes(method.ToUpperInvariant() + "\n" + path + "\n" + timestamp + "\n" + nonce + "\n");
            var all = new byte[head.Length + body.Length + 1];
            Buffer.BlockCopy(head, 0, all, 0, head.Length);
            Buffer.BlockCopy(body, 0, all, head.Length, body.Length);
            all[all.Length - 1] = (byte)'\n';
            return all;
        }

        static string Header(IEnumerable<KeyValuePair<string, string>> headers, string name)
        {
            string found = null;
            foreach (var h in headers)
            {
                if (!string.Equals(h.Key, name, StringComparison.OrdinalIgnoreCase) || h.Value == null) continue;
                if (found != null) throw new CallbackVerificationException(VerifyReason.MalformedHeader, name + " given twice");
                found = h.Value;
            }
            return string.IsNullOrEmpty(found) ? null : found;
        }

        /// <summary>Headers of an HttpListener/ASP.NET request (NameValueCollection), one pair per value.</summary>
        public static IEnumerable<KeyValuePair<string, string>> Pairs(System.Collections.Specialized.NameValueCollection c)
        {
            foreach (string k in c.AllKeys)
                foreach (var v in c.GetValues(k) ?? new string[0]) yield return new KeyValuePair<string, string>(k, v);
        }

        /// <summary>Verifies a call: method, path (a query string is ignored), headers and the raw body bytes.</summary>
        public VerifiedCall Verify(string method, string path, IEnumerable<KeyValuePair<string, string>> headers, byte[] body)
        {
            var list = headers.ToList();
            string timestamp = Header(list, "Timestamp"), nonce = Header(list, "Nonce"), signature = Header(list, "Signature"), keyId = Header(list, "Key-Id");
            if (timestamp == null) throw new CallbackVerificationException(VerifyReason.MissingHeader, "Timestamp is missing");
            if (nonce == null) throw new CallbackVerificationException(VerifyReason.MissingHeader, "Nonce is missing");
            if (signature == null) throw new CallbackVerificationException(VerifyReason.MissingHeader, "Signature is missing");
            if (!TimestampRe.IsMatch(timestamp))
                throw new CallbackVerificationException(VerifyReason.MalformedHeader, "Timestamp is not 1-15 decimal digits");
            if (nonce.Length > 256 || ControlRe.IsMatch(nonce))
                throw new CallbackVerificationException(VerifyReason.MalformedHeader, "Nonce is too long or has control characters");
            if (signature.Length > 2048 || !Base64Re.IsMatch(signature))
                throw new CallbackVerificationException(VerifyReason.MalformedHeader, "Signature is not standard base64");
            long ts = long.Parse(timestamp);
            if (Math.Abs(now() - ts) > windowSeconds)
                throw new CallbackVerificationException(VerifyReason.StaleTimestamp, "Timestamp " + ts + " is outside the " + windowSeconds + " s window");
            List<string> candidates;
            if (keyId != null)
            {
                if (!keys.ContainsKey(keyId)) throw new CallbackVerificationException(VerifyReason.UnknownKey, "no public key with id " + keyId);
                candidates = new List<string> { keyId };
            }
            else
            {
                if (keys.Count == 0) throw new CallbackVerificationException(VerifyReason.UnknownKey, "no public key configured");
                candidates = keys.Keys.ToList();
            }
            byte[] sig = Convert.FromBase64String(signature);
            byte[] data = SignBase(method, path, timestamp, nonce, body);
            string matched = candidates.FirstOrDefault(kid => Rsa.VerifySha256(keys[kid], data, sig));
            if (matched == null)
                throw new CallbackVerificationException(VerifyReason.BadSignature, "the signature does not verify (was the body changed?)");
            if (!nonces.Remember(nonce, ts + windowSeconds + 1))
                throw new CallbackVerificationException(VerifyReason.ReplayedNonce, "nonce " + nonce + " was already used");
            return new VerifiedCall { KeyId = matched, Timestamp = ts, Nonce = nonce };
        }
    }

    /// <summary>RSA public keys from PEM without ImportFromPem (missing on Mono): a minimal DER reader of
    /// SubjectPublicKeyInfo { AlgorithmIdentifier, BIT STRING { RSAPublicKey { modulus, exponent } } }.</summary>
    static class Rsa
    {
        public static RSAParameters FromPem(string pem)
        {
            string b64 = Regex.Replace(pem, "-----(BEGIN|END) PUBLIC KEY-----|\\s", "");
            byte[] der = Convert.FromBase64String(b64);
            int i = 0;
            Enter(der, ref i, 0x30);              // SubjectPublicKeyInfo
            Skip(der, ref i, 0x30);               // AlgorithmIdentifier (rsaEncryption)
            int bits = Enter(der, ref i, 0x03);   // BIT STRING
            if (bits < 1 || der[i++] != 0) throw new FormatException("unexpected BIT STRING");
            Enter(der, ref i, 0x30);              // RSAPublicKey
            byte[] n = Integer(der, ref i), e = Integer(der, ref i);
            return new RSAParameters { Modulus = n, Exponent = e };
        }

        static int Length(byte[] d, ref int i)
        {
            int b = d[i++];
            if (b < 0x80) return b;
            int n = b & 0x7f, len = 0;
            while (n-- > 0) len = (len << 8) | d[i++];
            return len;
        }

        static int Enter(byte[] d, ref int i, byte tag)
        {
            if (d[i++] != tag) throw new FormatException("not an RSA SubjectPublicKeyInfo");
            return Length(d, ref i);
        }

        static void Skip(byte[] d, ref int i, byte tag) { int len = Enter(d, ref i, tag); i += len; }

        static byte[] Integer(byte[] d, ref int i)
        {
            int len = Enter(d, ref i, 0x02);
            int start = i;
            i += len;
            while (len > 1 && d[start] == 0) { start++; len--; }   // drop the sign byte
            var v = new byte[len];
            Buffer.BlockCopy(d, start, v, 0, len);
            return v;
        }

        public static bool VerifySha256(RSAParameters key, byte[] data, byte[] sig)
        {
            using (var rsa = new RSACryptoServiceProvider())
            {
                rsa.ImportParameters(key);
                try { return rsa.VerifyData(data, sig, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1); }
                catch (CryptographicException) { return false; }
            }
        }
    }
}
