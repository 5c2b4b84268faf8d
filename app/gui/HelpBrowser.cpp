// SPDX-License-Identifier: GPL-3.0-or-later
#include "HelpBrowser.h"

#include "ActionRegistry.h"
#include "CombiningHat.h"
#include "CorpusLocations.h"
#include "Lessons.h"

#include <QAction>
#include <QCoreApplication>
#include <QDir>
#include <QEvent>
#include <QFileInfo>
#include <QHeaderView>
#include <QImage>
#include <QMenu>
#include <QPixmap>
#include <QTableWidget>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextImageFormat>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace specdec::gui {

QString docsFolder()
{
    QStringList candidates;
    const QString env = qEnvironmentVariable("SPECDEC_DOC_DIR");
    if (!env.isEmpty())
        candidates << env;
    // Installed: the docs folder under share/doc/<package>; a build tree links docs/ into the data directory.
    const QString bin = QCoreApplication::applicationDirPath();
    candidates << bin + QStringLiteral("/../share/doc/specdec-lab/docs")
               << bin + QStringLiteral("/../share/doc/specdec-lab");
    for (const QString &data : app::dataDirectories())
        candidates << data + QStringLiteral("/docs");
    for (const QString &dir : std::as_const(candidates))
        if (QFileInfo::exists(dir + QStringLiteral("/user-guide.md")))
            return QDir(dir).canonicalPath();
    return {};
}

QString userGuidePath(const QString &language)
{
    const QDir dir(docsFolder());
    for (const QString &code : {language, language.section(QLatin1Char('_'), 0, 0)}) {
        const QString localized = dir.filePath(QStringLiteral("user-guide.%1.md").arg(code));
        if (!code.isEmpty() && QFileInfo::exists(localized))
            return localized;
    }
    if (language.startsWith(QLatin1String("zh")) && QFileInfo::exists(dir.filePath(QStringLiteral("user-guide.zh_CN.md"))))
        return dir.filePath(QStringLiteral("user-guide.zh_CN.md"));
    return dir.filePath(QStringLiteral("user-guide.md"));
}

namespace {

/// The guide's pages as QTextBrowser reads them, with α̂'s hat drawn over α (app::withDrawnHats).
class GuidePages : public QTextBrowser
{
public:
    using QTextBrowser::QTextBrowser;
    QVariant loadResource(int type, const QUrl &name) override
    {
        QVariant resource = QTextBrowser::loadResource(type, name);
        if (type != QTextDocument::MarkdownResource)
            return resource;
        const QString text = resource.typeId() == QMetaType::QByteArray ? QString::fromUtf8(resource.toByteArray())
                                                                        : resource.toString();
        return app::withDrawnHats(text);
    }
};

} // namespace

HelpBrowser::HelpBrowser(QWidget *parent)
    : QWidget(parent)
    , m_browser(new GuidePages(this))
{
    m_browser->setOpenExternalLinks(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_browser);
}

bool HelpBrowser::showGuide()
{
    m_path = userGuidePath(contentLanguage());
    if (!QFileInfo::exists(m_path)) {
        m_browser->setPlainText(tr("The user guide was not found (looked for %1).").arg(m_path));
        return false;
    }
    // Relative image paths (images/x.png) resolve against the guide's folder.
    m_browser->setSearchPaths({QFileInfo(m_path).absolutePath()});
    m_browser->setSource(QUrl::fromLocalFile(m_path), QTextDocument::MarkdownResource);
    fitImages();
    return true;
}

void HelpBrowser::fitImages()
{
    // Every picture at most as wide as the page (its own width when smaller), in proportion: the guide reads
    // without scrolling sideways.
    QTextDocument *document = m_browser->document();
    const double room = std::max(120.0, m_browser->viewport()->width() - 2 * document->documentMargin() - 4);
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            QTextImageFormat image = fragment.charFormat().toImageFormat();
            if (!image.isValid())
                continue;
            const QVariant resource = document->resource(QTextDocument::ImageResource, QUrl(image.name()));
            const QSize natural = resource.value<QImage>().isNull() ? resource.value<QPixmap>().size()
                                                                    : resource.value<QImage>().size();
            if (natural.isEmpty())
                continue;
            const double width = std::min<double>(natural.width(), room);
            if (std::abs(image.width() - width) < 0.5)
                continue;
            image.setWidth(width);
            image.setHeight(width * natural.height() / natural.width());
            QTextCursor cursor(document);
            cursor.setPosition(fragment.position());
            cursor.setPosition(fragment.position() + fragment.length(), QTextCursor::KeepAnchor);
            cursor.setCharFormat(image);
        }
}

void HelpBrowser::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    if (!m_path.isEmpty())
        fitImages();
}

void HelpBrowser::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange && !m_path.isEmpty())
        showGuide();
    QWidget::changeEvent(event);
}

QList<ShortcutEntry> shortcutEntries(const ActionRegistry &registry)
{
    QList<ShortcutEntry> entries;
    const QList<QAction *> declared = registry.actions();
    for (MenuId id : {MenuId::File, MenuId::Play, MenuId::View, MenuId::Language, MenuId::Classroom, MenuId::Help}) {
        const QMenu *menu = registry.menu(id);
        QString title = menu->title();
        title.remove(QLatin1Char('&'));
        for (QAction *a : menu->actions()) {
            if (a->shortcuts().isEmpty() || !declared.contains(a))
                continue;
            QString text = a->text().isEmpty() ? a->statusTip() : a->text();
            text.remove(QLatin1Char('&'));
            QStringList keys;
            for (const QKeySequence &key : a->shortcuts())
                keys << key.toString(QKeySequence::NativeText);
            entries << ShortcutEntry{text, keys.join(QStringLiteral(", ")), title};
        }
    }
    return entries;
}

ShortcutList::ShortcutList(QWidget *parent)
    : QWidget(parent)
    , m_table(new QTableWidget(0, 3, this))
{
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_table);
    retranslate();
}

void ShortcutList::setEntries(const QList<ShortcutEntry> &entries)
{
    m_table->setRowCount(static_cast<int>(entries.size()));
    for (int i = 0; i < entries.size(); ++i) {
        m_table->setItem(i, 0, new QTableWidgetItem(entries[i].shortcut));
        m_table->setItem(i, 1, new QTableWidgetItem(entries[i].action));
        m_table->setItem(i, 2, new QTableWidgetItem(entries[i].menu));
    }
    m_table->resizeColumnsToContents();
}

void ShortcutList::retranslate()
{
    m_table->setHorizontalHeaderLabels({tr("Shortcut"), tr("Action"), tr("Menu")});
}

void ShortcutList::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

} // namespace specdec::gui
