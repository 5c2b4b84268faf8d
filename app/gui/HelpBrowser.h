// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// HelpBrowser: the user guide (docs/user-guide.md, or user-guide.<language>.md when there is one) rendered
// inside the app with its images, and the list of keyboard shortcuts — read from the window's action
// registry (ActionRegistry.h), so no second table of keys exists to fall out of date. Where the docs are: $SPECDEC_DOC_DIR,
// the installed docs (share/doc/specdec-lab), or docs/ of a data directory (the build tree links the source tree's docs/ there).

#include <QWidget>

class QAction;
class QTableWidget;
class QTextBrowser;

namespace specdec::gui {

/// The folder holding user-guide.md and its images.
QString docsFolder();
/// The guide in `language` ("zh_CN", "en_US", …): user-guide.<language>.md if present, else user-guide.md.
QString userGuidePath(const QString &language);

class HelpBrowser : public QWidget
{
    Q_OBJECT
public:
    explicit HelpBrowser(QWidget *parent = nullptr);

    /// Loads the guide in the current language; false when no guide was found.
    bool showGuide();
    QTextBrowser *browser() const { return m_browser; }
    QString guidePath() const { return m_path; }

    /// Shrinks every picture wider than the page to the page's width (in proportion).
    void fitImages();

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    QTextBrowser *m_browser;
    QString m_path;
};

/// One row of the shortcut list.
struct ShortcutEntry
{
    QString action;   ///< its text without '&'
    QString shortcut; ///< in the platform's native form
    QString menu;     ///< the menu it is in ("" when it is in none)
};

class ActionRegistry;

/// Every action of `registry` that has a shortcut, in the order of the menu bar and its menus.
QList<ShortcutEntry> shortcutEntries(const ActionRegistry &registry);

class ShortcutList : public QWidget
{
    Q_OBJECT
public:
    explicit ShortcutList(QWidget *parent = nullptr);
    void setEntries(const QList<ShortcutEntry> &entries);
    QTableWidget *table() const { return m_table; }

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslate();
    QTableWidget *m_table;
};

} // namespace specdec::gui
