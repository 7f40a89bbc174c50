"""Regenerate `tool/entrykit/data/probe_messages.json`: real error messages of many tools.

Each message is produced by running the tool installed on this machine in a scratch
folder (with the environment stripped of the user's configuration), and recorded with
the command that printed it and the tool's version. Tools that cannot be installed or
run here (the Go toolchain, web APIs, Log4j 2, CloudFormation) contribute messages
quoted from their documentation or source, recorded with that address.

Each record: `ecosystem`, `message` (one line), `key` (the text that tells this error
from others; ET208 treats an entry whose own signature or examples hold the key as
being about this error), and `command` or `source`.

    python benchmarks/probe_messages.py            # rewrite the data file
    python benchmarks/probe_messages.py --check    # say which messages changed, write nothing

A tool that is missing, or that no longer prints its message, keeps its old records
(reported on stderr), so regenerating on a machine with fewer tools loses nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "tool" / "entrykit" / "data" / "probe_messages.json"
WORK = "/tmp/work"  # the scratch folder as messages show it


@dataclass(frozen=True)
class Recipe:
    ecosystem: str
    command: str  # run with `sh -c` in a fresh scratch folder
    key: str  # must occur in the picked line
    pick: str = ""  # regex picking the line; default: the first line holding `key`
    version: str = ""  # command printing the tool's version (first line kept)


PY = "python3"
_PYV = f"{PY} --version"


def _py(code: str) -> str:
    return f"{PY} -c {_sh(code)}"


def _sh(text: str) -> str:
    return "'" + text.replace("'", "'\"'\"'") + "'"


def _node(code: str) -> str:
    return f"node -e {_sh(code)}"


def _java(source: str, name: str = "Main") -> str:
    return f"printf %s {_sh(source)} > {name}.java && javac {name}.java && java {name}"


def _rust(source: str, flags: str = "") -> str:
    return f"printf %s {_sh(source)} > main.rs && rustc {flags} main.rs -o main && ./main"


def _c(source: str, flags: str = "") -> str:
    return f"printf %s {_sh(source)} > main.c && gcc {flags} main.c -o main && ./main"


_GIT = "git init -q && git -c user.name=t -c user.email=t@example.org commit -q --allow-empty -m x && "

RECIPES: tuple[Recipe, ...] = (
    # --- Python and its tools
    Recipe("python", _py("1/0"), "ZeroDivisionError", version=_PYV),
    Recipe("python", _py("{}['zero']"), "KeyError", version=_PYV),
    Recipe("python", _py("import entrykit_missing_module"), "ModuleNotFoundError", version=_PYV),
    Recipe("python", _py("from sys import nope"), "ImportError: cannot import name", version=_PYV),
    Recipe("python", _py("None.x"), "has no attribute", version=_PYV),
    Recipe("python", _py("'a' + 1"), "can only concatenate str", version=_PYV),
    Recipe("python", _py("len(5)"), "has no len()", version=_PYV),
    Recipe("python", _py("None()"), "object is not callable", pick="^TypeError", version=_PYV),
    Recipe("python", _py("None[0]"), "object is not subscriptable", pick="^TypeError", version=_PYV),
    Recipe("python", _py("[][1]"), "IndexError: list index out of range", version=_PYV),
    Recipe("python", _py("int('x')"), "invalid literal for int()", version=_PYV),
    Recipe("python", _py("open('missing.txt')"), "FileNotFoundError", version=_PYV),
    Recipe("python", _py("open('/', 'w')"), "IsADirectoryError", version=_PYV),
    Recipe("python", _py("nope"), "NameError: name", version=_PYV),
    Recipe("python", _py("def f(): f()\nf()"), "RecursionError", version=_PYV),
    Recipe("python", _py("b'\\xff'.decode('utf-8')"), "UnicodeDecodeError", version=_PYV),
    Recipe("python", _py("import json; json.loads('')"), "JSONDecodeError", pick="^json", version=_PYV),
    Recipe("python", _py("x = (1,"), "SyntaxError", version=_PYV),
    Recipe("python", _py("if 1:\nprint(1)"), "IndentationError", version=_PYV),
    Recipe("python", _py("import socket; socket.create_connection(('127.0.0.1', 1))"), "ConnectionRefusedError",
           version=_PYV),
    Recipe("python", _py("a, b = [1]"), "values to unpack", version=_PYV),
    Recipe("python", _py("import math; math.sqrt(-1)"), "math domain error", version=_PYV),
    Recipe("python", _py("assert 1 == 2, 'values differ'"), "AssertionError", version=_PYV),
    Recipe("python", _py("d = {}\nfor k in d: pass\nd = {1: 1}\nfor k in d: d[2] = 2"),
           "dictionary changed size during iteration", version=_PYV),
    Recipe("python", _py("next(iter([]))"), "StopIteration", pick=r"^StopIteration", version=_PYV),
    Recipe("python", _py("import asyncio\nasync def f(): pass\nf()"), "was never awaited", version=_PYV),
    Recipe("numpy", f"{PY} -W always -c " + _sh("import numpy as np; np.array([1.0]) / 0"),
           "divide by zero encountered", version=f"{PY} -c 'import numpy; print(numpy.__version__)'"),
    Recipe("numpy", f"{PY} -W always -c " + _sh("import numpy as np; np.array([0.0]) / 0"),
           "invalid value encountered", version=f"{PY} -c 'import numpy; print(numpy.__version__)'"),
    Recipe("numpy", _py("import numpy as np; np.zeros(2) + np.zeros(3)"), "could not be broadcast together",
           version=f"{PY} -c 'import numpy; print(numpy.__version__)'"),
    Recipe("numpy", _py("import numpy as np; np.zeros((2, 3)) @ np.zeros((2, 3))"), "mismatch in its core dimension",
           version=f"{PY} -c 'import numpy; print(numpy.__version__)'"),
    Recipe("pip", f"{PY} -m pip --isolated --disable-pip-version-check install --no-index entrykit-no-such-package",
           "No matching distribution found", version=f"{PY} -m pip --version"),
    Recipe("pip", f"{PY} -m pip --isolated --disable-pip-version-check install --no-index "
           "entrykit-no-such-package", "Could not find a version that satisfies the requirement",
           version=f"{PY} -m pip --version"),
    Recipe("pip", f"{PY} -m pip --isolated --disable-pip-version-check install --no-index -r missing.txt",
           "Could not open requirements file", version=f"{PY} -m pip --version"),
    # --- Node.js and npm
    Recipe("node", _node("require('entrykit-missing')"), "Cannot find module", version="node --version"),
    Recipe("node", _node("null.x"), "Cannot read properties of", version="node --version"),
    Recipe("node", _node("undefined.x"), "Cannot read properties of", version="node --version"),
    Recipe("node", _node("nope"), "is not defined", version="node --version"),
    Recipe("node", _node("JSON.parse('{')"), "in JSON at position", version="node --version"),
    Recipe("node", _node("(void 0)()"), "is not a function", version="node --version"),
    Recipe("node", _node("const a = 1; a = 2"), "Assignment to constant variable", version="node --version"),
    Recipe("node", _node("function f() { f() } f()"), "Maximum call stack size exceeded", version="node --version"),
    Recipe("node", _node("require('fs').readFileSync('missing.txt')"), "ENOENT: no such file or directory",
           version="node --version"),
    Recipe("node", _node("require('net').connect(1, '127.0.0.1')"), "ECONNREFUSED", version="node --version"),
    Recipe("node", _node("const net = require('net'); net.createServer().listen(47913, () => "
                         "net.createServer().listen(47913))"), "EADDRINUSE", version="node --version"),
    Recipe("node", _node("new Array(-1)"), "Invalid array length", version="node --version"),
    Recipe("node", _node("Promise.reject(new Error('boom'))"), "Error: boom", version="node --version"),
    Recipe("node", _node("BigInt(1) + 1"), "Cannot mix BigInt and other types", version="node --version"),
    Recipe("npm", "npm install --offline --no-audit --no-fund", "Could not read package.json",
           pick=r"Could not read package\.json", version="npm --version"),
    Recipe("npm", "echo {} > package.json && npm run build", "Missing script", version="npm --version"),
    # --- Java, javac, Maven, SLF4J
    Recipe("java", _java("class Main { public static void main(String[] a) { String s = null; s.length(); } }"),
           "NullPointerException", version="java -version 2>&1"),
    Recipe("java", _java("class Main { public static void main(String[] a) { int[] x = new int[1]; x[2] = 0; } }"),
           "ArrayIndexOutOfBoundsException", version="java -version 2>&1"),
    Recipe("java", _java("class Main { public static void main(String[] a) { Integer.parseInt(\"x\"); } }"),
           "NumberFormatException", version="java -version 2>&1"),
    Recipe("java", _java("class Main { public static void main(String[] a) { System.out.println(1 / (a.length)); } }"),
           "ArithmeticException: / by zero", version="java -version 2>&1"),
    Recipe("java", _java("class Main { static void f() { f(); } public static void main(String[] a) { f(); } }"),
           "StackOverflowError", version="java -version 2>&1"),
    Recipe("java", _java("class Main { public static void main(String[] a) { long[] x = new long[Integer.MAX_VALUE - 8]; } }"),
           "OutOfMemoryError", version="java -version 2>&1"),
    Recipe("java", _java("class Main { public static void main(String[] a) throws Exception "
                         "{ Class.forName(\"com.example.Missing\"); } }"),
           "ClassNotFoundException", version="java -version 2>&1"),
    Recipe("java", _java("class Main { public static void main(String[] a) { Object o = \"s\"; Integer i = (Integer) o; } }"),
           "ClassCastException", version="java -version 2>&1"),
    Recipe("java", _java("class Main { public static void main(String[] a) { java.util.List<Integer> l = "
                         "new java.util.ArrayList<>(java.util.List.of(1)); for (Integer i : l) l.add(i); } }"),
           "ConcurrentModificationException", version="java -version 2>&1"),
    Recipe("java", "java Missing", "Could not find or load main class", version="java -version 2>&1"),
    Recipe("javac", "printf %s 'class Main { void f() { nope(); } }' > Main.java && javac Main.java",
           "cannot find symbol", version="javac -version 2>&1"),
    Recipe("javac", "printf %s 'class Main { void f() { int x = 1 } }' > Main.java && javac Main.java",
           "';' expected", version="javac -version 2>&1"),
    Recipe("javac", "printf %s 'class Main { void f() { int x = \"s\"; } }' > Main.java && javac Main.java",
           "incompatible types", version="javac -version 2>&1"),
    Recipe("maven", "mvn -q -o -B package", "there is no POM in this directory", version="mvn -v 2>&1"),
    Recipe("slf4j", _java("class Main { public static void main(String[] a) "
                          "{ org.slf4j.LoggerFactory.getLogger(Main.class).info(\"x\"); } }")
           .replace("javac Main.java", "javac -cp /usr/share/java/slf4j-api.jar Main.java")
           .replace("java Main", "java -cp /usr/share/java/slf4j-api.jar:. Main"),
           "Failed to load class \"org.slf4j.impl.StaticLoggerBinder\"", version="java -version 2>&1"),
    # --- Rust and cargo
    Recipe("rust", _rust("fn main() { let v: Vec<i32> = Vec::new(); println!(\"{}\", v[std::env::args().count()]); }"),
           "index out of bounds", version="rustc --version"),
    Recipe("rust", _rust("fn main() { let x: Option<i32> = None; x.unwrap(); }"),
           "called `Option::unwrap()` on a `None` value", version="rustc --version"),
    Recipe("rust", _rust("fn main() { let r: Result<i32, String> = Err(\"bad\".into()); r.unwrap(); }"),
           "called `Result::unwrap()` on an `Err` value", version="rustc --version"),
    Recipe("rust", _rust("fn main() { let z = std::env::args().count() as i32 - 1; println!(\"{}\", 1 / z); }"),
           "attempt to divide by zero", version="rustc --version"),
    Recipe("rust", _rust("fn main() { let z = std::env::args().count() as u8 - 2; println!(\"{}\", z); }"),
           "attempt to subtract with overflow", version="rustc --version"),
    Recipe("rustc", "printf %s 'fn main() { nope(); }' > main.rs && rustc main.rs",
           "cannot find function", version="rustc --version"),
    Recipe("rustc", "printf %s 'fn main() { let x: i32 = \"s\"; }' > main.rs && rustc main.rs",
           "error[E0308]: mismatched types", version="rustc --version"),
    Recipe("rustc", "printf %s 'fn main() { let mut v = vec![1]; let a = &v[0]; v.push(2); println!(\"{}\", a); }' "
           "> main.rs && rustc main.rs", "cannot borrow", version="rustc --version"),
    Recipe("rustc", "printf %s 'fn main() { let s = String::new(); let t = s; println!(\"{}\", s); }' > main.rs "
           "&& rustc main.rs", "borrow of moved value", version="rustc --version"),
    Recipe("cargo", "cargo build --offline", "could not find `Cargo.toml`", version="cargo --version"),
    Recipe("cargo", "cargo new -q --vcs none app && cd app && printf %s 'fn main() { nope(); }' > src/main.rs "
           "&& cargo build --offline -q", "could not compile", version="cargo --version"),
    # --- C, the linker, make, CMake
    Recipe("gcc", "printf %s '#include <nope.h>' > main.c && gcc -c main.c", "No such file or directory",
           pick=r"fatal error: ", version="gcc --version"),
    Recipe("gcc", "printf %s 'int main(void) { return 0 }' > main.c && gcc -c main.c", "expected ‘;’ before",
           version="gcc --version"),
    Recipe("gcc", "printf %s 'int main(void) { return nope; }' > main.c && gcc -c main.c", "undeclared",
           version="gcc --version"),
    Recipe("ld", "printf %s 'void f(void); int main(void) { f(); return 0; }' > main.c && gcc main.c",
           "undefined reference to", version="ld --version"),
    Recipe("ld", "printf %s 'void f(void); int main(void) { f(); return 0; }' > main.c && gcc main.c",
           "ld returned 1 exit status", version="ld --version"),
    Recipe("ld", "printf %s 'int main(void) { return 0; }' > main.c && gcc main.c -lentrykitnope", "cannot find -l",
           version="ld --version"),
    Recipe("ld", "printf %s 'int x; int main(void) { return 0; }' > a.c && printf %s 'int x = 1;' > b.c "
           "&& gcc -fno-common a.c b.c", "multiple definition of", version="ld --version"),
    Recipe("c", _c("int main(void) { int *p = 0; return *p; }"), "Segmentation fault",
           pick=r"Segmentation fault", version="gcc --version"),
    Recipe("c", _c("#include <stdlib.h>\nint main(void) { abort(); }"), "Aborted", pick="Aborted",
           version="gcc --version"),
    Recipe("make", "make", "No targets specified and no makefile found", version="make --version"),
    Recipe("make", "make nope", "No rule to make target", version="make --version"),
    Recipe("make", "printf 'all:\\n\\tfalse\\n' > Makefile && make", "Error 1", pick=r"\*\*\*",
           version="make --version"),
    Recipe("make", "printf 'all:\\n    true\\n' > Makefile && make", "missing separator", version="make --version"),
    Recipe("cmake", "mkdir b && cd b && cmake ..", "does not appear to contain CMakeLists.txt",
           version="cmake --version"),
    Recipe("cmake", "printf 'cmake_minimum_required(VERSION 3.10)\\nproject(x NONE)\\nfind_package(EntrykitNope "
           "REQUIRED)\\n' > CMakeLists.txt && cmake -S . -B b", "By not providing \"FindEntrykitNope.cmake\"",
           version="cmake --version"),
    # --- git
    Recipe("git", "git status", "not a git repository", version="git --version"),
    Recipe("git", "git init -q && git checkout nope", "did not match any file(s) known to git", version="git --version"),
    Recipe("git", "git init -q && git log", "does not have any commits yet", version="git --version"),
    Recipe("git", _GIT + "git show nope", "ambiguous argument", version="git --version"),
    Recipe("git", _GIT + "git branch -M main && git branch main", "already exists", version="git --version"),
    Recipe("git", "git init -q && git remote add origin /x && git remote add origin /y", "remote origin already exists",
           version="git --version"),
    Recipe("git", _GIT + "git push", "No configured push destination", version="git --version"),
    Recipe("git", _GIT + "git pull", "There is no tracking information for the current branch",
           version="git --version"),
    Recipe("git", "git clone /nonexistent/repo x", "fatal: repository '", version="git --version"),
    Recipe("git", _GIT + "git merge nope", "not something we can merge", version="git --version"),
    Recipe("git", _GIT + "git stash pop", "No stash entries found", version="git --version"),
    Recipe("git", _GIT + "git rebase --continue", "No rebase in progress", version="git --version"),
    Recipe("git", "git init -q && git -c user.name=t -c user.email=t@example.org commit -q -m x",
           "nothing to commit", pick="nothing", version="git --version"),
    # --- containers, clusters, clouds, infrastructure
    Recipe("docker", "docker -H unix:///tmp/work/none.sock ps", "Cannot connect to the Docker daemon",
           version="docker --version"),
    Recipe("docker", "docker run --nope x", "unknown flag", version="docker --version"),
    Recipe("docker", "docker nope", "docker: unknown command", version="docker --version"),
    Recipe("kubernetes", ": > kc && kubectl --kubeconfig kc get pods", "was refused - did you specify the right host or port",
           version="kubectl version --client"),
    Recipe("kubernetes", ": > kc && kubectl --kubeconfig kc apply -f missing.yaml", "does not exist",
           version="kubectl version --client"),
    Recipe("kubernetes", "kubectl nope", "unknown command", version="kubectl version --client"),
    Recipe("aws", "aws s3 ls", "Unable to locate credentials", version="aws --version"),
    Recipe("aws", "aws nope", "Invalid choice", pick="Invalid choice", version="aws --version"),
    Recipe("aws", "AWS_ACCESS_KEY_ID=x AWS_SECRET_ACCESS_KEY=y aws --region nope-1 --endpoint-url http://127.0.0.1:1 "
           "s3 ls", "Could not connect to the endpoint URL", version="aws --version"),
    Recipe("gcloud", "gcloud compute instances list", "You do not currently have an active account selected",
           version="gcloud --version"),
    Recipe("gcloud", "gcloud nope", "Invalid choice", version="gcloud --version"),
    Recipe("terraform", "terraform plan -no-color", "No configuration files", version="terraform version"),
    Recipe("terraform", "printf 'resource \"x\" {' > main.tf && terraform validate -no-color", "Unclosed configuration block",
           version="terraform version"),
    Recipe("terraform", "printf 'terraform {\\n required_providers {\\n x = { source = \"hashicorp/nope\" }\\n }\\n}\\n' "
           "> main.tf && terraform plan -no-color", "Inconsistent dependency lock file", version="terraform version"),
    # --- databases and network tools
    Recipe("postgres", "psql -h /tmp/work", "connection to server on socket", version="psql --version"),
    Recipe("postgres", "psql -h 127.0.0.1 -p 1", "Connection refused", pick="Connection refused", version="psql --version"),
    Recipe("sqlite", "sqlite3 :memory: 'select * from nope;'", "no such table", version="sqlite3 --version"),
    Recipe("sqlite", "sqlite3 :memory: 'create table t(v unique); insert into t values(1); insert into t values(1);'",
           "UNIQUE constraint failed", version="sqlite3 --version"),
    Recipe("sqlite", "sqlite3 :memory: 'selec 1;'", "syntax error", version="sqlite3 --version"),
    Recipe("curl", "curl -sS http://127.0.0.1:1/", "Failed to connect to", version="curl --version"),
    Recipe("curl", "curl -sS http://entrykit.invalid/", "Could not resolve host", version="curl --version"),
    Recipe("curl", "curl -sS -f file:///tmp/work/missing", "Couldn't open file", version="curl --version"),
    Recipe("ssh", "ssh -o BatchMode=yes entrykit.invalid true", "Could not resolve hostname", version="ssh -V 2>&1"),
    Recipe("ssh", "ssh -o BatchMode=yes -p 1 127.0.0.1 true", "Connection refused", version="ssh -V 2>&1"),
    Recipe("openssl", "openssl x509 -in missing.pem -noout", "Could not open file or uri", version="openssl version"),
    Recipe("perl", "perl -e 'use Entrykit::Nope;'", "Can't locate Entrykit/Nope.pm in @INC", version="perl -e 'print $^V'"),
    Recipe("shell", "sh -c 'entrykit-no-such-command'", "not found", version=""),
    Recipe("shell", "touch x && ./x", "Permission denied", version=""),
    Recipe("tar", "tar xf missing.tar", "Cannot open: No such file or directory", version="tar --version"),
    Recipe("jq", "echo 1 | jq .foo", "Cannot index number with", version="jq --version"),
    Recipe("gpg", "gpg --homedir /tmp/work/g --batch --verify missing.sig", "can't open", version="gpg --version"),
)

# Messages of tools not installable or runnable here, quoted from their documentation or source.
QUOTED: tuple[dict[str, str], ...] = (
    {"ecosystem": "go", "key": "invalid memory address or nil pointer dereference",
     "message": "panic: runtime error: invalid memory address or nil pointer dereference",
     "source": "https://go.dev/src/runtime/panic.go (panicmem)"},
    {"ecosystem": "go", "key": "index out of range",
     "message": "panic: runtime error: index out of range [5] with length 3",
     "source": "https://go.dev/src/runtime/error.go (boundsErrorFmt)"},
    {"ecosystem": "go", "key": "all goroutines are asleep - deadlock",
     "message": "fatal error: all goroutines are asleep - deadlock!",
     "source": "https://go.dev/src/runtime/proc.go (checkdead)"},
    {"ecosystem": "go", "key": "assignment to entry in nil map",
     "message": "panic: assignment to entry in nil map",
     "source": "https://go.dev/src/runtime/map.go (mapassign)"},
    {"ecosystem": "go", "key": "integer divide by zero",
     "message": "panic: runtime error: integer divide by zero",
     "source": "https://go.dev/src/runtime/panic.go (divideError)"},
    {"ecosystem": "go", "key": "no required module provides package",
     "message": "main.go:3:8: no required module provides package github.com/example/nope; "
                "to add it: go get github.com/example/nope",
     "source": "https://go.dev/ref/mod (go command output for a missing module)"},
    {"ecosystem": "log4j", "key": "No Log4j 2 configuration file found",
     "message": "ERROR StatusLogger No Log4j 2 configuration file found. Using default configuration (logging only "
                "errors to the console), or user programmatically provided configurations. Set system property "
                "'log4j2.debug' to show Log4j 2 internal initialization logging.",
     "source": "https://logging.apache.org/log4j/2.x/manual/configuration.html (Log4j 2.17 status message)"},
    {"ecosystem": "log4j", "key": "could not find a logging implementation",
     "message": "ERROR StatusLogger Log4j2 could not find a logging implementation. Please add log4j-core to the "
                "classpath. Using SimpleLogger to log to the console...",
     "source": "https://logging.apache.org/log4j/2.x/faq.html (log4j-api without log4j-core)"},
    {"ecosystem": "log4j", "key": "Unrecognized format specifier",
     "message": "ERROR StatusLogger Unrecognized format specifier [d]",
     "source": "https://logging.apache.org/log4j/2.x/faq.html (shaded jar without the plugin cache)"},
    {"ecosystem": "log4j", "key": "Reconfiguration failed: No configuration found",
     "message": "ERROR StatusLogger Reconfiguration failed: No configuration found for '73d16e93' at 'null' in 'null'",
     "source": "https://logging.apache.org/log4j/2.x/manual/configuration.html (status output)"},
    {"ecosystem": "aws-cloudformation", "key": "UPDATE_ROLLBACK_COMPLETE",
     "message": "An error occurred (ValidationError) when calling the UpdateStack operation: Stack:arn:aws:"
                "cloudformation:us-east-1:123456789012:stack/app/1a2b is in UPDATE_ROLLBACK_COMPLETE state and "
                "can not be updated.",
     "source": "https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/troubleshooting.html"},
    {"ecosystem": "aws-cloudformation", "key": "is in ROLLBACK_COMPLETE state",
     "message": "An error occurred (ValidationError) when calling the UpdateStack operation: Stack:arn:aws:"
                "cloudformation:us-east-1:123456789012:stack/app/1a2b is in ROLLBACK_COMPLETE state and can not "
                "be updated.",
     "source": "https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/troubleshooting.html"},
    {"ecosystem": "aws", "key": "ThrottlingException",
     "message": "An error occurred (ThrottlingException) when calling the DescribeStacks operation "
                "(reached max retries: 4): Rate exceeded",
     "source": "https://docs.aws.amazon.com/general/latest/gr/api-retries.html"},
    {"ecosystem": "aws", "key": "NoSuchBucket",
     "message": "An error occurred (NoSuchBucket) when calling the ListObjectsV2 operation: "
                "The specified bucket does not exist",
     "source": "https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html"},
    {"ecosystem": "aws", "key": "AccessDenied",
     "message": "An error occurred (AccessDenied) when calling the ListObjectsV2 operation: Access Denied",
     "source": "https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html"},
    {"ecosystem": "github-api", "key": "API rate limit exceeded for",
     "message": "API rate limit exceeded for 203.0.113.7. (But here's the good news: Authenticated requests get a "
                "higher rate limit. Check out the documentation for more details.)",
     "source": "https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api"},
    {"ecosystem": "github-api", "key": "secondary rate limit",
     "message": "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
     "source": "https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api"},
    {"ecosystem": "docker-hub", "key": "pull rate limit",
     "message": "toomanyrequests: You have reached your pull rate limit. You may increase the limit by "
                "authenticating and upgrading: https://www.docker.com/increase-rate-limit",
     "source": "https://docs.docker.com/docker-hub/usage/pulls/"},
    {"ecosystem": "openai-api", "key": "Rate limit reached for",
     "message": "Rate limit reached for gpt-4 in organization org-abc on tokens per min (TPM): Limit 10000, "
                "Used 9800, Requested 500. Please try again in 1.8s.",
     "source": "https://platform.openai.com/docs/guides/error-codes"},
    {"ecosystem": "google-api", "key": "Quota exceeded for quota metric",
     "message": "Quota exceeded for quota metric 'Queries' and limit 'Queries per minute' of service "
                "'compute.googleapis.com' for consumer 'project_number:123'.",
     "source": "https://cloud.google.com/docs/quotas/troubleshoot"},
    {"ecosystem": "http", "key": "429 Too Many Requests", "message": "HTTP/1.1 429 Too Many Requests",
     "source": "https://www.rfc-editor.org/rfc/rfc6585#section-4"},
    {"ecosystem": "http", "key": "503 Service Unavailable", "message": "HTTP/1.1 503 Service Unavailable",
     "source": "https://www.rfc-editor.org/rfc/rfc9110#section-15.6.4"},
)


# The program each ecosystem's recipes need (default: the ecosystem's name).
_TOOLS = {
    "python": PY, "numpy": PY, "pip": PY, "slf4j": "javac", "maven": "mvn", "rust": "rustc", "c": "gcc",
    "kubernetes": "kubectl", "postgres": "psql", "sqlite": "sqlite3", "shell": "sh",
}


def _environment(home: Path) -> dict[str, str]:
    keep = ("PATH", "JAVA_HOME", "RUSTUP_HOME", "CARGO_HOME", "PYENV_ROOT", "PYENV_VERSION")
    env = {k: v for k, v in os.environ.items() if k in keep}
    env.update({
        "HOME": str(home), "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8", "LANGUAGE": "C", "TERM": "dumb", "NO_COLOR": "1",
        "GIT_CONFIG_NOSYSTEM": "1", "GIT_CEILING_DIRECTORIES": str(home.parent), "AWS_EC2_METADATA_DISABLED": "true",
        "AWS_CONFIG_FILE": str(home / "none"), "AWS_SHARED_CREDENTIALS_FILE": str(home / "none"),
        "CLOUDSDK_CONFIG": str(home / "gcloud"), "CLOUDSDK_CORE_DISABLE_PROMPTS": "1", "KUBECONFIG": str(home / "none"),
        "TF_CLI_CONFIG_FILE": "/dev/null", "CHECKPOINT_DISABLE": "1", "DOCKER_CONFIG": str(home / "docker"),
        "npm_config_cache": str(home / "npm"), "npm_config_update_notifier": "false",
    })
    if "CARGO_HOME" not in env:
        env["CARGO_HOME"] = str(Path.home() / ".cargo")
    if "RUSTUP_HOME" not in env:
        env["RUSTUP_HOME"] = str(Path.home() / ".rustup")
    return env


_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


_COMPILER_TEMP = re.compile(r"/tmp/cc[A-Za-z0-9]{6}\.o")  # gcc's object files: a new name each run


def _clean(text: str, work: str) -> str:
    return _COMPILER_TEMP.sub("/tmp/ccXXXXXX.o", _ANSI.sub("", text).replace(work, WORK))


def run(recipe: Recipe) -> dict[str, str] | str:
    """The record a recipe produces, or why it produced none."""
    tool = _TOOLS.get(recipe.ecosystem, recipe.ecosystem)
    if shutil.which(tool) is None:
        return f"`{tool}` is not installed here"
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        work = root / "work"
        work.mkdir()
        env = _environment(root)
        command = recipe.command.replace(WORK, str(work))
        try:
            proc = subprocess.run(["sh", "-c", command], cwd=work, env=env, capture_output=True, text=True, check=False,
                                  timeout=180, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            return "timed out"
        output = _clean(proc.stdout + proc.stderr, str(work))
        version = ""
        if recipe.version:
            done = subprocess.run(["sh", "-c", recipe.version], cwd=work, env=env, capture_output=True, text=True, check=False,
                                  timeout=60, stdin=subprocess.DEVNULL)
            version = next((ln.strip() for ln in (done.stdout + done.stderr).splitlines() if ln.strip()), "")
    pick = re.compile(recipe.pick) if recipe.pick else None
    for line in output.splitlines():
        line = line.strip()
        if (pick.search(line) if pick else recipe.key in line) and recipe.key in line:
            record = {"ecosystem": recipe.ecosystem, "key": recipe.key, "message": line, "command": recipe.command}
            if version:
                record["version"] = version
            return record
    return f"no line holds `{recipe.key}`; printed:\n{output}"


def _dump(records: list[dict[str, str]]) -> str:
    lines = [json.dumps(record, ensure_ascii=False, sort_keys=True) for record in records]
    return "[\n" + ",\n".join(lines) + "\n]\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="report changes, write nothing")
    parser.add_argument("--only", action="append", default=[], metavar="ECOSYSTEM",
                        help="run only this ecosystem's recipes, keep the other records (repeatable)")
    args = parser.parse_args()
    old = json.loads(DATA.read_text(encoding="utf-8")) if DATA.exists() else []
    old_by_command = {(r.get("command"), r["key"]): r for r in old if r.get("command")}
    records: list[dict[str, str]] = []
    for recipe in RECIPES:
        kept = old_by_command.get((recipe.command, recipe.key))
        if args.only and recipe.ecosystem not in args.only:
            if kept is not None:
                records.append(kept)
            continue
        found = run(recipe)
        if isinstance(found, str):
            print(f"{recipe.ecosystem}: {recipe.command}: {found}", file=sys.stderr)
            if kept is not None:
                records.append(kept)
            continue
        records.append(found)
    records += [dict(quoted) for quoted in QUOTED]
    text = _dump(records)
    changed = not DATA.exists() or DATA.read_text(encoding="utf-8") != text
    if args.check:
        print("changed" if changed else "unchanged")
        return 1 if changed else 0
    if changed:
        DATA.write_text(text, encoding="utf-8")
    print(f"{len(records)} messages from {len({r['ecosystem'] for r in records})} ecosystems -> {DATA}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
