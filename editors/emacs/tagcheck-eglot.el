;;; tagcheck-eglot.el --- tagcheck diagnostics in C buffers through Eglot  -*- lexical-binding: t; -*-

;; editors/emacs/tagcheck-eglot.el — registers `tagcheck --lsp' as Eglot's server for C buffers
;; (c-mode and c-ts-mode), so Flymake shows tagcheck's findings (source "tagcheck", the rule id
;; as code) while you type. Eglot runs one server per buffer: with this, tagcheck replaces
;; clangd in C buffers; see docs/editors.md for running both (lsp-mode add-on servers).
;;
;; Usage:
;;   (add-to-list 'load-path "/path/to/tagcheck/editors/emacs")
;;   (require 'tagcheck-eglot)
;;   ;; then M-x eglot in a C buffer, or (add-hook 'c-mode-hook #'eglot-ensure)

;;; Code:

(require 'eglot)

(defgroup tagcheck nil
  "Backend-tag diagnostics for dt tensor programs."
  :group 'tools
  :prefix "tagcheck-")

(defcustom tagcheck-program "tagcheck"
  "The tagcheck program: a name on `exec-path' or an absolute file name."
  :type 'string)

(defcustom tagcheck-compile-commands-dir nil
  "Folder holding compile_commands.json, passed as -p.
nil: tagcheck looks in the folders above each file and their build/ subfolders."
  :type '(choice (const :tag "Search upwards" nil) directory))

(defcustom tagcheck-extra-args nil
  "More tagcheck options, e.g. (\"--unavailable\" \"cuda\")."
  :type '(repeat string))

(defcustom tagcheck-debounce-ms 200
  "Quiet period in milliseconds after an edit before the buffer is analyzed again."
  :type 'integer)

(defclass tagcheck-eglot-server (eglot-lsp-server) ()
  :documentation "The tagcheck language server.")

(cl-defmethod eglot-initialization-options ((_server tagcheck-eglot-server))
  "Send tagcheck its debounce interval."
  (list :debounceMs tagcheck-debounce-ms))

(defun tagcheck-eglot-command (&optional _interactive)
  "The command line that starts tagcheck's language server."
  (cons 'tagcheck-eglot-server
        (append (list tagcheck-program "--lsp")
                (when tagcheck-compile-commands-dir
                  (list "-p" (expand-file-name tagcheck-compile-commands-dir)))
                tagcheck-extra-args)))

(add-to-list 'eglot-server-programs '((c-mode c-ts-mode) . tagcheck-eglot-command))

(provide 'tagcheck-eglot)

;;; tagcheck-eglot.el ends here
